//! The migrations are embedded in the binary (`db::migrate`): a migration added or changed
//! builds it again.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
