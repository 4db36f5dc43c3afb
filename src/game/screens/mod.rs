//! The screens a player reads, assembled from typed inputs: the world screen (the map around
//! the player's companies, the picked cell, what the selected company may do there, whether
//! a company may be raised, the first day's steps, the markers, a report) and the company
//! screen. The pages draw them and the API serves them; neither decides what they hold.

pub mod company;
pub mod home;
pub mod live;
pub mod world;
