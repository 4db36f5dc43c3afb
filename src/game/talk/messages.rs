//! Messages: private ones between two players of a world (of any nation: diplomacy is part of
//! war), each nation's board, and the game masters' announcements to a whole world.
//!
//! A message carries only what its author typed: no position, no company. Who may read it is
//! decided here, once, for every route (`readable`, and the filters of each listing).

use super::text::Body;
use super::{now_or_muted, serialize_writes_of};
use crate::config::TalkSettings;
use crate::db::models::Player;
use crate::db::schema::{blocks, messages, players, users};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::news::alerts::{self, Told};
use crate::game::play::access::{self, Actor};
use crate::i18n::Lang;
use crate::ids::{MessageId, NationId, UserId, WorldId};
use crate::said::Said;
use diesel::dsl::{exists, not};
use diesel::prelude::*;

pub use crate::rules::names::Channel;

/// `to` of a message for a nation's board.
pub const NATION: &str = "nation";
/// `to` of a game master's announcement.
pub const WORLD: &str = "world";

/// Whom a message is written to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum To {
    Player(String),
    Nation,
    World,
}

impl To {
    pub fn parse(s: &str) -> To {
        match s.trim() {
            NATION => To::Nation,
            WORLD => To::World,
            name => To::Player(name.to_string()),
        }
    }

    /// As [`To::parse`] reads it.
    pub fn as_str(&self) -> &str {
        match self {
            To::Player(name) => name,
            To::Nation => NATION,
            To::World => WORLD,
        }
    }
}

/// One message as its readers get it (the API and the pages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub id: MessageId,
    pub from: String,
    pub to: To,
    pub body: String,
    pub at: i64,
}

fn board_channel(nation_id: NationId) -> String {
    format!("n{nation_id}")
}

fn pair_channel(a: UserId, b: UserId) -> String {
    format!("p{}-{}", a.min(b), a.max(b))
}

impl Channel {
    /// The channel a message's row names (`p…` two players, `n…` a board, `world`).
    pub fn of(channel: &str) -> Channel {
        match channel.chars().next() {
            Some('p') => Channel::Private,
            Some('n') => Channel::Nation,
            _ => Channel::World,
        }
    }
}

/// The other user of a private channel seen by `me`.
fn other_of(channel: &str, me: UserId) -> Option<UserId> {
    let (a, b) = channel.strip_prefix('p')?.split_once('-')?;
    let (a, b) = (UserId(a.parse().ok()?), UserId(b.parse().ok()?));
    Some(if a == me { b } else { a })
}

type Row = (
    MessageId,
    String,
    Option<String>,
    Option<NationId>,
    String,
    i64,
);

fn view((id, from, to_name, nation, body, at): Row) -> Message {
    let to = match (to_name, nation) {
        (Some(name), _) => To::Player(name),
        (None, Some(_)) => To::Nation,
        (None, None) => To::World,
    };
    Message {
        id,
        from,
        to,
        body,
        at,
    }
}

diesel::alias!(users as to_users: ToUsers);

/// Messages with their author's and recipient's names: the one shape every listing reads.
macro_rules! named {
    () => {
        messages::table
            .inner_join(users::table.on(users::id.eq(messages::from_user_id)))
            .left_join(
                to_users.on(to_users
                    .field(users::id)
                    .nullable()
                    .eq(messages::to_user_id)),
            )
            .select((
                messages::id,
                users::username,
                to_users.field(users::username).nullable(),
                messages::nation_id,
                messages::body,
                messages::at,
            ))
    };
}

/// Authors the reader blocked (in any world: a block is the account's) are not heard, on the
/// board either.
macro_rules! not_blocked_by {
    ($me:expr) => {
        not(exists(
            blocks::table
                .filter(blocks::user_id.eq($me))
                .filter(blocks::blocked_id.eq(messages::from_user_id)),
        ))
    };
}

/// Not found unless the world exists.
pub(super) fn world_exists(conn: &mut DbConnection, world_id: WorldId) -> GameResult<()> {
    crate::game::maps::worlds::get(conn, world_id).map(|_| ())
}

/// A player of the world by name: their user id and name as written.
pub(super) fn player_named(
    conn: &mut DbConnection,
    world_id: WorldId,
    name: &str,
) -> GameResult<(UserId, String)> {
    // A name no account can have (a NUL byte, which PostgreSQL refuses in text) is nobody's.
    if crate::game::accounts::users::check_username(name.trim()).is_err() {
        return Err(GameError::not_found("player"));
    }
    players::table
        .inner_join(users::table)
        .filter(players::world_id.eq(world_id))
        .filter(users::username_key.eq(name.trim().to_lowercase()))
        .select((users::id, users::username))
        .first(conn)
        .optional()?
        .ok_or_else(|| GameError::not_found("player"))
}

/// The other people playing the player's world (no computer player), by name: whom a
/// message may be written to. At most `limit`.
pub fn others(conn: &mut DbConnection, player: &Player, limit: i64) -> GameResult<Vec<String>> {
    Ok(players::table
        .inner_join(users::table)
        .filter(players::world_id.eq(player.world_id))
        .filter(players::user_id.ne(player.user_id))
        .filter(users::bot.eq(false))
        .order(users::username_key)
        .select(users::username)
        .limit(limit)
        .load(conn)?)
}

/// The names of the world's other players nearest `typed` (at most two letters changed, the
/// closest first, at most `n`): whom a mistyped name most likely meant.
pub fn names_like(
    conn: &mut DbConnection,
    player: &Player,
    typed: &str,
    n: usize,
) -> GameResult<Vec<String>> {
    // Names are 24 letters at most: a longer text is more than two letters from any of them,
    // and the comparisons stay bounded (24 × 26 steps a name).
    let typed: Vec<char> = typed.trim().to_lowercase().chars().take(26).collect();
    let mut near: Vec<(usize, String)> = others(conn, player, 10_000)?
        .into_iter()
        .filter_map(|name| {
            let d = edits(&typed, &name.to_lowercase().chars().collect::<Vec<_>>());
            (d <= 2).then_some((d, name))
        })
        .collect();
    near.sort();
    Ok(near.into_iter().take(n).map(|(_, name)| name).collect())
}

/// The letters to insert, remove or change to make `a` into `b` (Levenshtein).
fn edits(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// Refuses past `messages_per_window` messages in the window, saying when the next may go.
fn check_rate(
    conn: &mut DbConnection,
    t: &TalkSettings,
    user_id: UserId,
    world_id: WorldId,
    now: i64,
) -> GameResult<()> {
    let recent: Vec<i64> = messages::table
        .filter(messages::from_user_id.eq(user_id))
        .filter(messages::world_id.eq(world_id))
        .order(messages::id.desc())
        .limit(t.messages_per_window)
        .select(messages::at)
        .load(conn)?;
    match recent.last() {
        Some(&oldest)
            if recent.len() as i64 >= t.messages_per_window && oldest > now - t.window_seconds =>
        {
            Err(GameError::RateLimited {
                retry_after: (oldest + t.window_seconds - now).max(1),
            })
        }
        _ => Ok(()),
    }
}

/// Sends a message; returns it as its readers will see it.
pub fn send(
    conn: &mut DbConnection,
    t: &TalkSettings,
    actor: &Actor,
    world_id: WorldId,
    to: &To,
    body: &Body,
) -> GameResult<Message> {
    db::write(conn, |conn| {
        world_exists(conn, world_id)?;
        let now = db::now();
        let (channel, to_user, nation, to_name) = match to {
            To::World => {
                actor.require_gm()?;
                (WORLD.to_string(), None, None, None)
            }
            To::Nation | To::Player(_) => {
                let me = access::require_player(conn, actor, world_id)?;
                now_or_muted(&me, now)?;
                serialize_writes_of(conn, actor.user_id)?;
                check_rate(conn, t, actor.user_id, world_id, now)?;
                match to {
                    To::Player(name) => {
                        let (them, their_name) = player_named(conn, world_id, name)?;
                        if them == actor.user_id {
                            return Err(GameError::Invalid(
                                Said::new("error-message-to-self").into(),
                            ));
                        }
                        if is_blocked(conn, them, actor.user_id)? {
                            return Err(GameError::Blocked(
                                Said::new("error-blocked").s("player", &their_name).into(),
                            ));
                        }
                        (
                            pair_channel(actor.user_id, them),
                            Some(them),
                            None,
                            Some(their_name),
                        )
                    }
                    _ => (board_channel(me.nation_id), None, Some(me.nation_id), None),
                }
            }
        };
        in_order_of_ids(conn, world_id)?;
        let id: MessageId = diesel::insert_into(messages::table)
            .values((
                messages::world_id.eq(world_id),
                messages::channel.eq(&channel),
                messages::from_user_id.eq(actor.user_id),
                messages::to_user_id.eq(to_user),
                messages::nation_id.eq(nation),
                messages::body.eq(body.as_str()),
                messages::at.eq(now),
            ))
            .returning(messages::id)
            .get_result(conn)?;
        tell_readers(conn, actor, world_id, to, to_user, now)?;
        Ok(view((
            id,
            actor.username.clone(),
            to_name,
            nation,
            body.as_str().to_string(),
            now,
        )))
    })
}

/// On PostgreSQL a world's messages are written one after the other, so that their ids commit
/// in order and a reader polling with `since` never passes over one that commits late
/// (SQLite's single writer does that already).
fn in_order_of_ids(conn: &mut DbConnection, world_id: WorldId) -> QueryResult<()> {
    db::serialize_on(conn, &format!("talk-world:{world_id}"))
}

/// A private message's recipient is told (and its badge counts it); an announcement tells
/// every player of the world. The board tells only those who asked (a nation talks all day).
fn tell_readers(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    to: &To,
    to_user: Option<UserId>,
    now: i64,
) -> GameResult<()> {
    let (kind, said, readers) = match (to, to_user) {
        (To::Player(_), Some(them)) => {
            diesel::update(users::table.find(them))
                .set(users::unread_messages.eq(users::unread_messages + 1))
                .execute(conn)?;
            crate::db::live::note(
                conn,
                None,
                crate::rules::names::LiveTopic::Message,
                Some(them),
                None,
            )?;
            let said = Said::new("said-message-from").s("player", &actor.username);
            (alerts::MESSAGE, said, vec![them])
        }
        (To::World, _) => {
            let everyone: Vec<UserId> = players::table
                .filter(players::world_id.eq(world_id))
                .filter(players::user_id.ne(actor.user_id))
                .select(players::user_id)
                .load(conn)?;
            let said = Said::new("said-announcement").s("player", &actor.username);
            (alerts::ANNOUNCEMENT, said, everyone)
        }
        (To::Nation, _) => {
            // The board tells nobody but those who asked (a nation talks all day).
            let me = access::require_player(conn, actor, world_id)?;
            let blocked_by: Vec<UserId> = blocks::table
                .filter(blocks::blocked_id.eq(actor.user_id))
                .select(blocks::user_id)
                .load(conn)?;
            crate::game::news::reminders::board(
                conn,
                world_id,
                me.nation_id,
                (actor.user_id, &actor.username),
                &blocked_by,
                now,
            )?;
            return Ok(());
        }
        _ => return Ok(()),
    };
    let (summary, said) = (said.render(Lang::En), said.encode());
    let told = Told {
        world_id,
        event_id: None,
        kind,
        summary: &summary,
        said: &said,
        at: now,
    };
    for user in readers {
        alerts::tell(conn, user, &told)?;
    }
    Ok(())
}

/// Whether `user` blocked `author` (in whichever world: a block follows the account).
pub fn is_blocked(conn: &mut DbConnection, user: UserId, author: UserId) -> GameResult<bool> {
    let n: i64 = blocks::table
        .filter(blocks::user_id.eq(user))
        .filter(blocks::blocked_id.eq(author))
        .count()
        .get_result(conn)?;
    Ok(n > 0)
}

/// Who reads a world's messages: a player (their private messages, their nation's board, the
/// announcements) or a game master who did not join it (the announcements only).
pub enum Reader {
    Player(Player),
    GameMaster(UserId),
}

impl Reader {
    pub fn of(conn: &mut DbConnection, actor: &Actor, world_id: WorldId) -> GameResult<Reader> {
        world_exists(conn, world_id)?;
        match access::player_in(conn, actor, world_id)? {
            Some(p) => Ok(Reader::Player(p)),
            None if actor.role.is_gm() => Ok(Reader::GameMaster(actor.user_id)),
            None => Err(GameError::Forbidden(Said::new("error-join-first").into())),
        }
    }

    fn user_id(&self) -> UserId {
        match self {
            Reader::Player(p) => p.user_id,
            Reader::GameMaster(id) => *id,
        }
    }

    /// The board this reader reads, if any ("" names no channel).
    fn board(&self) -> String {
        match self {
            Reader::Player(p) => board_channel(p.nation_id),
            Reader::GameMaster(_) => String::new(),
        }
    }
}

/// At most this many messages in one answer of the API.
pub const API_PAGE: i64 = 100;

/// `GET /api/v1/worlds/{w}/messages?since=ID`: the reader's private messages (sent and
/// received), their nation's board and the announcements, newest last; after `since`, the
/// oldest `API_PAGE` of those that follow it, else the latest `API_PAGE`. Four statements, each
/// one range of an index (a channel's, the recipient's, the author's), merged here.
pub fn since(
    conn: &mut DbConnection,
    reader: &Reader,
    world_id: WorldId,
    since: Option<MessageId>,
) -> GameResult<Vec<Message>> {
    let me = reader.user_id();
    let board = reader.board();
    let (after, newest_first) = (since.unwrap_or(MessageId(0)), since.is_none());
    macro_rules! part {
        ($filter:expr) => {{
            let q = named!()
                .filter(messages::world_id.eq(world_id))
                .filter(messages::removed_at.is_null())
                .filter(messages::id.gt(after))
                .filter($filter)
                .filter(not_blocked_by!(me))
                .limit(API_PAGE);
            let rows: Vec<Row> = if newest_first {
                q.order(messages::id.desc()).load(conn)?
            } else {
                q.order(messages::id.asc()).load(conn)?
            };
            rows
        }};
    }
    let mut rows = part!(messages::channel.eq(WORLD));
    if !board.is_empty() {
        rows.extend(part!(messages::channel.eq(&board)));
    }
    rows.extend(part!(messages::to_user_id.eq(me)));
    rows.extend(part!(messages::from_user_id
        .eq(me)
        .and(messages::to_user_id.is_not_null())));
    rows.sort_by_key(|r| r.0);
    rows.dedup_by_key(|r| r.0);
    let rows: Vec<Row> = if newest_first {
        let skip = rows.len().saturating_sub(API_PAGE as usize);
        rows.into_iter().skip(skip).collect()
    } else {
        rows.into_iter().take(API_PAGE as usize).collect()
    };
    Ok(rows.into_iter().map(view).collect())
}

/// One page of a channel, newest first, and the id to ask for the next (older) page.
#[derive(Clone, Debug)]
pub struct Page {
    pub messages: Vec<Message>,
    pub older: Option<MessageId>,
}

fn page_of(
    conn: &mut DbConnection,
    world_id: WorldId,
    me: UserId,
    channel: &str,
    before: Option<MessageId>,
    size: i64,
) -> GameResult<Page> {
    let mut rows: Vec<Row> = named!()
        .filter(messages::world_id.eq(world_id))
        .filter(messages::channel.eq(channel))
        .filter(messages::id.lt(before.unwrap_or(MessageId(i32::MAX))))
        .filter(messages::removed_at.is_null())
        .filter(not_blocked_by!(me))
        .order(messages::id.desc())
        .limit(size + 1)
        .load(conn)?;
    let older = if rows.len() as i64 > size {
        rows.truncate(size as usize);
        rows.last().map(|r| r.0)
    } else {
        None
    };
    Ok(Page {
        messages: rows.into_iter().map(view).collect(),
        older,
    })
}

/// One page of the player's nation's board: one statement, one range of `messages_channel`.
pub fn board(
    conn: &mut DbConnection,
    player: &Player,
    before: Option<MessageId>,
    size: i64,
) -> GameResult<Page> {
    let channel = board_channel(player.nation_id);
    page_of(
        conn,
        player.world_id,
        player.user_id,
        &channel,
        before,
        size,
    )
}

/// The latest announcements of a world.
pub fn announcements(conn: &mut DbConnection, world_id: WorldId, size: i64) -> GameResult<Page> {
    page_of(conn, world_id, UserId(0), WORLD, None, size)
}

/// One conversation with another player, in one page, newest first, with the other player's
/// name as written; what the reader had not read of it is read now (how many: the third).
pub fn thread(
    conn: &mut DbConnection,
    player: &Player,
    with: &str,
    before: Option<MessageId>,
    size: i64,
) -> GameResult<(String, Page, usize)> {
    let (them, name) = player_named(conn, player.world_id, with)?;
    let channel = pair_channel(player.user_id, them);
    let page = page_of(
        conn,
        player.world_id,
        player.user_id,
        &channel,
        before,
        size,
    )?;
    // Read now: what the first page shows, up to its newest message; an older page, or a
    // page with nothing unread, writes nothing.
    let newest = page
        .messages
        .first()
        .map(|m| m.id)
        .filter(|_| before.is_none());
    let unread = |upto: MessageId| {
        messages::table
            .filter(messages::to_user_id.eq(player.user_id))
            .filter(messages::world_id.eq(player.world_id))
            .filter(messages::channel.eq(&channel))
            .filter(messages::id.le(upto))
            .filter(messages::read_at.is_null())
    };
    let read = match newest {
        Some(upto) if diesel::select(exists(unread(upto))).get_result::<bool>(conn)? => {
            db::write(conn, |conn| {
                let n = diesel::update(unread(upto))
                    .set(messages::read_at.eq(Some(db::now())))
                    .execute(conn)?;
                super::recount_unread(conn, player.user_id)?;
                GameResult::Ok(n)
            })?
        }
        _ => 0,
    };
    Ok((name, page, read))
}

/// A conversation in the reader's list: with whom, when it last spoke, how much is unread.
#[derive(Clone, Debug)]
pub struct Thread {
    pub with: String,
    pub last_at: i64,
    pub unread: i64,
}

/// The reader's conversations, the latest first (over their latest 1,000 private messages).
pub fn threads(conn: &mut DbConnection, player: &Player) -> GameResult<Vec<Thread>> {
    let me = player.user_id;
    let rows: Vec<(String, Option<UserId>, Option<i64>, i64)> = messages::table
        .filter(messages::world_id.eq(player.world_id))
        .filter(messages::to_user_id.is_not_null())
        .filter(
            messages::to_user_id
                .eq(me)
                .or(messages::from_user_id.eq(me)),
        )
        .filter(messages::removed_at.is_null())
        .order(messages::id.desc())
        .limit(1000)
        .select((
            messages::channel,
            messages::to_user_id,
            messages::read_at,
            messages::at,
        ))
        .load(conn)?;
    // What a blocked author wrote is not shown, so it is not unread either (as on the badge).
    let blocked: Vec<UserId> = blocks::table
        .filter(blocks::user_id.eq(me))
        .select(blocks::blocked_id)
        .load(conn)?;
    let mut list: Vec<(UserId, i64, i64)> = Vec::new();
    for (channel, to, read_at, at) in rows {
        let Some(other) = other_of(&channel, me) else {
            continue;
        };
        let unread = i64::from(to == Some(me) && read_at.is_none() && !blocked.contains(&other));
        match list.iter_mut().find(|(o, _, _)| *o == other) {
            Some(t) => t.2 += unread,
            None => list.push((other, at, unread)),
        }
    }
    let ids: Vec<UserId> = list.iter().map(|t| t.0).collect();
    let names: Vec<(UserId, String)> = users::table
        .filter(users::id.eq_any(&ids))
        .select((users::id, users::username))
        .load(conn)?;
    Ok(list
        .into_iter()
        .filter_map(|(other, last_at, unread)| {
            let with = names.iter().find(|(id, _)| *id == other)?.1.clone();
            Some(Thread {
                with,
                last_at,
                unread,
            })
        })
        .collect())
}

/// A message the actor may read (and so report): theirs, to them, of their nation's board, or
/// an announcement of a world they play in (or any, for a game master). Anything else, and a
/// removed message, is not found.
pub fn readable(
    conn: &mut DbConnection,
    actor: &Actor,
    message_id: MessageId,
) -> GameResult<(WorldId, UserId, String)> {
    /// World, author, recipient, nation, channel.
    type Whose = (WorldId, UserId, Option<UserId>, Option<NationId>, String);
    let row: Option<Whose> = messages::table
        .filter(messages::id.eq(message_id))
        .filter(messages::removed_at.is_null())
        .select((
            messages::world_id,
            messages::from_user_id,
            messages::to_user_id,
            messages::nation_id,
            messages::channel,
        ))
        .first(conn)
        .optional()?;
    let Some((world_id, from, to, nation, channel)) = row else {
        return Err(GameError::not_found("message"));
    };
    let me = actor.user_id;
    let ok = from == me
        || to == Some(me)
        || match (nation, to) {
            (Some(n), _) => {
                access::player_in(conn, actor, world_id)?.is_some_and(|p| p.nation_id == n)
            }
            (None, None) => {
                actor.role.is_gm() || access::player_in(conn, actor, world_id)?.is_some()
            }
            (None, Some(_)) => false,
        };
    if !ok {
        return Err(GameError::not_found("message"));
    }
    Ok((world_id, from, channel))
}

/// Blocks a player of the world, in every world: a block follows the account, so their
/// private messages are refused (`blocked`) and their words on the boards are no longer shown
/// to the blocker wherever the two meet. What they wrote that the blocker had not read leaves
/// the badge at once.
pub fn block(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    name: &str,
) -> GameResult<String> {
    db::write(conn, |conn| {
        world_exists(conn, world_id)?;
        access::require_player(conn, actor, world_id)?;
        let (them, their_name) = player_named(conn, world_id, name)?;
        if them == actor.user_id {
            return Err(GameError::Invalid(Said::new("error-block-self").into()));
        }
        // Waits for a message of theirs being written (`send` holds this lock), so that the
        // count below sees it, or `send` then sees the block.
        serialize_writes_of(conn, them)?;
        if !is_blocked(conn, actor.user_id, them)? {
            super::insert_block(conn, actor.user_id, them)?;
            super::recount_unread(conn, actor.user_id)?;
        }
        Ok(their_name)
    })
}

/// Lifts a block, wherever it was made: the player named may play in this world, or be one
/// the actor blocked elsewhere (the list of blocks names them).
pub fn unblock(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    name: &str,
) -> GameResult<()> {
    db::write(conn, |conn| {
        world_exists(conn, world_id)?;
        access::require_player(conn, actor, world_id)?;
        let them = match blocked_named(conn, actor.user_id, name)? {
            Some(id) => id,
            None => player_named(conn, world_id, name)?.0,
        };
        let lifted = diesel::delete(
            blocks::table
                .filter(blocks::user_id.eq(actor.user_id))
                .filter(blocks::blocked_id.eq(them)),
        )
        .execute(conn)?;
        if lifted > 0 {
            // Their unread messages are shown again, so they count again.
            super::recount_unread(conn, actor.user_id)?;
        }
        Ok(())
    })
}

/// The account `user` blocked under that name, if any.
fn blocked_named(conn: &mut DbConnection, user: UserId, name: &str) -> GameResult<Option<UserId>> {
    // A name no account can have (a NUL byte, which PostgreSQL refuses in text) is nobody's.
    if crate::game::accounts::users::check_username(name.trim()).is_err() {
        return Ok(None);
    }
    Ok(blocks::table
        .inner_join(users::table.on(users::id.eq(blocks::blocked_id)))
        .filter(blocks::user_id.eq(user))
        .filter(users::username_key.eq(name.trim().to_lowercase()))
        .select(users::id)
        .first(conn)
        .optional()?)
}

/// The players the actor blocked, by name: in every world, since a block follows the account.
pub fn blocked(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
) -> GameResult<Vec<String>> {
    world_exists(conn, world_id)?;
    Ok(blocks::table
        .inner_join(users::table.on(users::id.eq(blocks::blocked_id)))
        .filter(blocks::user_id.eq(actor.user_id))
        .order(users::username_key)
        .select(users::username)
        .load(conn)?)
}

/// Where `/messages` leads a player: the world of their newest unread private message (from
/// an author they have not blocked), else the first world they play in.
pub fn newest_world(conn: &mut DbConnection, user_id: UserId) -> GameResult<Option<WorldId>> {
    let unread: Option<WorldId> = messages::table
        .filter(messages::to_user_id.eq(user_id))
        .filter(messages::read_at.is_null())
        .filter(messages::removed_at.is_null())
        .filter(not(exists(
            blocks::table
                .filter(blocks::user_id.eq(user_id))
                .filter(blocks::blocked_id.eq(messages::from_user_id)),
        )))
        .order(messages::id.desc())
        .select(messages::world_id)
        .first(conn)
        .optional()?;
    match unread {
        Some(w) => Ok(Some(w)),
        None => Ok(players::table
            .filter(players::user_id.eq(user_id))
            .order(players::world_id)
            .select(players::world_id)
            .first(conn)
            .optional()?),
    }
}

#[cfg(test)]
mod tests {
    use super::edits;

    #[test]
    fn edits_count_letters_inserted_removed_or_changed() {
        let e = |a: &str, b: &str| {
            edits(
                &a.chars().collect::<Vec<_>>(),
                &b.chars().collect::<Vec<_>>(),
            )
        };
        assert_eq!(e("kutuzov", "kutuzov"), 0);
        assert_eq!(e("kutusov", "kutuzov"), 1);
        assert_eq!(e("kutzov", "kutuzov"), 1);
        assert_eq!(e("", "ney"), 3);
        assert_eq!(e("murat", "ney"), 5);
    }
}
