//! Table definitions, matching `migrations/{sqlite,postgres}`.

diesel::table! {
    worlds (id) {
        id -> Integer,
        name -> Text,
        width -> Integer,
        height -> Integer,
        turn -> Integer,
        season -> Text,
        paused -> Bool,
        rng_seed -> BigInt,
        rng_word_pos -> BigInt,
        schedule_anchor -> BigInt,
        created_at -> BigInt,
        cells_version -> BigInt,
        ended_turn -> Nullable<Integer>,
        ended_reason -> Nullable<Text>,
        winner_id -> Nullable<Integer>,
        victory_points -> Nullable<BigInt>,
        victory_end_turn -> Nullable<Integer>,
        victory_towns_share -> Nullable<Double>,
        follows_id -> Nullable<Integer>,
        grid -> Text,
    }
}

diesel::table! {
    section_sightings (section_id, nation_id) {
        section_id -> Integer,
        nation_id -> Integer,
        world_id -> Integer,
    }
}

diesel::table! {
    castle_sections (id) {
        id -> Integer,
        world_id -> Integer,
        castle_id -> Integer,
        name -> Text,
        kind -> Text,
        holder_id -> Nullable<Integer>,
    }
}

diesel::table! {
    castles (id) {
        id -> Integer,
        world_id -> Integer,
        name -> Text,
    }
}

diesel::table! {
    campaign_maps (world_id) {
        world_id -> Integer,
        map -> Text,
    }
}

diesel::table! {
    nations (id) {
        id -> Integer,
        world_id -> Integer,
        name -> Text,
        color -> Text,
        spawn_x -> Integer,
        spawn_y -> Integer,
        treasury -> BigInt,
        points -> BigInt,
    }
}

diesel::table! {
    nation_turns (world_id, turn, nation_id) {
        world_id -> Integer,
        turn -> Integer,
        nation_id -> Integer,
        points -> BigInt,
        towns -> BigInt,
        mines -> BigInt,
        sections -> BigInt,
        companies -> BigInt,
        men -> BigInt,
    }
}

diesel::table! {
    towns (id) {
        id -> Integer,
        world_id -> Integer,
        name -> Text,
        owner_id -> Nullable<Integer>,
    }
}

diesel::table! {
    cells (world_id, x, y) {
        world_id -> Integer,
        x -> Integer,
        y -> Integer,
        terrain -> Text,
        town_id -> Nullable<Integer>,
        owner_id -> Nullable<Integer>,
        structure -> Nullable<Integer>,
        version -> BigInt,
        castle_id -> Nullable<Integer>,
        siege_builds -> Nullable<Integer>,
        siege_structure -> Nullable<Integer>,
        section_id -> Nullable<Integer>,
    }
}

diesel::table! {
    users (id) {
        id -> Integer,
        username -> Text,
        username_key -> Text,
        password_hash -> Text,
        role -> Text,
        banned -> Bool,
        created_at -> BigInt,
        last_login_at -> Nullable<BigInt>,
        previous_login_at -> Nullable<BigInt>,
        unread_alerts -> Integer,
        email -> Nullable<Text>,
        alert_mail -> Bool,
        last_mail_at -> Nullable<BigInt>,
        unsubscribe_token -> Nullable<Text>,
        lang -> Nullable<Text>,
        unread_messages -> Integer,
        bot -> Bool,
        hand_to_bot -> Bool,
    }
}

diesel::table! {
    alerts (id) {
        id -> Integer,
        user_id -> Integer,
        world_id -> Integer,
        event_id -> Nullable<Integer>,
        kind -> Text,
        summary -> Text,
        at -> BigInt,
        read_at -> Nullable<BigInt>,
        mailed_at -> Nullable<BigInt>,
        said -> Text,
    }
}

diesel::table! {
    sessions (id) {
        id -> Text,
        user_id -> Integer,
        csrf_token -> Text,
        created_at -> BigInt,
        last_seen_at -> BigInt,
    }
}

diesel::table! {
    api_tokens (id) {
        id -> Integer,
        user_id -> Integer,
        name -> Text,
        token_hash -> Text,
        created_at -> BigInt,
        last_used_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    login_failures (id) {
        id -> Integer,
        bucket -> Text,
        at -> BigInt,
    }
}

diesel::table! {
    regiments (id) {
        id -> Integer,
        world_id -> Integer,
        nation_id -> Integer,
        name -> Text,
        hq_x -> Nullable<Integer>,
        hq_y -> Nullable<Integer>,
        created_at -> BigInt,
    }
}

diesel::table! {
    players (id) {
        id -> Integer,
        world_id -> Integer,
        user_id -> Integer,
        nation_id -> Integer,
        reserve -> Integer,
        regiment_id -> Nullable<Integer>,
        joined_at -> BigInt,
        leave_until -> Nullable<BigInt>,
        first_steps -> Integer,
        inflicted -> BigInt,
        lost -> BigInt,
        captures -> Integer,
        xp -> BigInt,
        turns_played -> Integer,
        played_turn -> Integer,
        muted_until -> Nullable<BigInt>,
        ranked_turn -> Nullable<Integer>,
        ranked_inflicted -> BigInt,
        ranked_lost -> BigInt,
        ranked_captures -> Integer,
        ranked_xp -> BigInt,
        ranked_turns -> Integer,
        ranked_points -> BigInt,
    }
}

diesel::table! {
    companies (id) {
        id -> Integer,
        world_id -> Integer,
        player_id -> Integer,
        name -> Text,
        kind -> Text,
        x -> Integer,
        y -> Integer,
        men -> Integer,
        wounded -> Integer,
        ap -> Integer,
        morale -> Integer,
        xp -> Integer,
        volley_recency -> Integer,
        created_at -> BigInt,
        rng_pos -> BigInt,
    }
}

diesel::table! {
    events (id) {
        id -> Integer,
        world_id -> Integer,
        turn -> Integer,
        at -> BigInt,
        kind -> Text,
        actor_user_id -> Nullable<Integer>,
        target_user_id -> Nullable<Integer>,
        nation_id -> Nullable<Integer>,
        other_nation_id -> Nullable<Integer>,
        company_id -> Nullable<Integer>,
        target_company_id -> Nullable<Integer>,
        x -> Nullable<Integer>,
        y -> Nullable<Integer>,
        summary -> Text,
        data -> Text,
        said -> Text,
    }
}

diesel::table! {
    ticks (world_id, kind, scheduled_for) {
        world_id -> Integer,
        kind -> Text,
        scheduled_for -> BigInt,
        applied_at -> BigInt,
        duration_ms -> BigInt,
        rows_touched -> BigInt,
        manual -> Bool,
        pending -> Bool,
        companies_through -> Integer,
        companies_last -> Integer,
    }
}

diesel::table! {
    gm_audit (id) {
        id -> Integer,
        world_id -> Nullable<Integer>,
        user_id -> Integer,
        at -> BigInt,
        action -> Text,
        target -> Text,
        x -> Nullable<Integer>,
        y -> Nullable<Integer>,
        old_value -> Nullable<Text>,
        new_value -> Nullable<Text>,
        batch -> Nullable<Text>,
    }
}

diesel::table! {
    dice_seeds (world_id, turn) {
        world_id -> Integer,
        turn -> Integer,
        seed -> BigInt,
    }
}

diesel::joinable!(nations -> worlds (world_id));
diesel::joinable!(towns -> worlds (world_id));
diesel::joinable!(cells -> worlds (world_id));
diesel::joinable!(players -> worlds (world_id));
diesel::joinable!(players -> users (user_id));
diesel::joinable!(players -> nations (nation_id));
diesel::joinable!(companies -> players (player_id));
diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(api_tokens -> users (user_id));

diesel::table! {
    edges (world_id, x, y, side) {
        world_id -> Integer,
        x -> Integer,
        y -> Integer,
        side -> Text,
        feature -> Text,
    }
}

diesel::table! {
    messages (id) {
        id -> Integer,
        world_id -> Integer,
        channel -> Text,
        from_user_id -> Integer,
        to_user_id -> Nullable<Integer>,
        nation_id -> Nullable<Integer>,
        body -> Text,
        at -> BigInt,
        read_at -> Nullable<BigInt>,
        removed_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    message_reports (id) {
        id -> Integer,
        world_id -> Integer,
        message_id -> Integer,
        reporter_id -> Integer,
        reason -> Text,
        at -> BigInt,
        settled_at -> Nullable<BigInt>,
        settled_by -> Nullable<Integer>,
    }
}

diesel::table! {
    blocks (user_id, blocked_id) {
        user_id -> Integer,
        blocked_id -> Integer,
        at -> BigInt,
    }
}

diesel::table! {
    markers (id) {
        id -> Integer,
        world_id -> Integer,
        nation_id -> Integer,
        user_id -> Integer,
        x -> Integer,
        y -> Integer,
        label -> Text,
        at -> BigInt,
        expires_turn -> Integer,
    }
}

diesel::joinable!(message_reports -> messages (message_id));
diesel::joinable!(markers -> users (user_id));
diesel::joinable!(markers -> worlds (world_id));

diesel::table! {
    live_log (id) {
        id -> BigInt,
        world_id -> Nullable<Integer>,
        at -> BigInt,
        topic -> Text,
        user_id -> Nullable<Integer>,
        ref_id -> Nullable<Integer>,
    }
}

diesel::table! {
    webhooks (id) {
        id -> Integer,
        user_id -> Integer,
        url -> Text,
        created_at -> BigInt,
        failures -> Integer,
        disabled_at -> Nullable<BigInt>,
        last_error -> Nullable<Text>,
    }
}

diesel::table! {
    deliveries (id) {
        id -> Integer,
        alert_id -> Integer,
        webhook_id -> Nullable<Integer>,
        due_at -> BigInt,
        attempts -> Integer,
        claimed_until -> Nullable<BigInt>,
        key -> Text,
        subscription_id -> Nullable<Integer>,
        last_of_day -> Bool,
    }
}

diesel::table! {
    push_keys (id) {
        id -> Integer,
        private_key -> Text,
        public_key -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    push_subscriptions (id) {
        id -> Integer,
        user_id -> Integer,
        endpoint -> Text,
        p256dh -> Text,
        auth -> Text,
        created_at -> BigInt,
        failures -> Integer,
        last_error -> Nullable<Text>,
    }
}

diesel::table! {
    push_settings (user_id) {
        user_id -> Integer,
        full_ap -> Bool,
        turn_unspent -> Bool,
        section_lost -> Bool,
        board -> Bool,
        quiet_from -> Nullable<Integer>,
        quiet_to -> Nullable<Integer>,
        utc_offset -> Integer,
        daily_cap -> Integer,
        day -> BigInt,
        sent -> Integer,
    }
}

diesel::table! {
    bots (player_id) {
        player_id -> Integer,
        world_id -> Integer,
        level -> Text,
        turn -> Integer,
        last_company -> Integer,
        done -> Bool,
        created_at -> BigInt,
    }
}

diesel::joinable!(bots -> players (player_id));

diesel::allow_tables_to_appear_in_same_query!(
    bots,
    push_keys,
    push_subscriptions,
    push_settings,
    webhooks,
    deliveries,
    edges,
    messages,
    message_reports,
    blocks,
    markers,
    alerts,
    campaign_maps,
    castle_sections,
    section_sightings,
    castles,
    nation_turns,
    dice_seeds,
    worlds,
    nations,
    towns,
    cells,
    users,
    sessions,
    api_tokens,
    login_failures,
    regiments,
    players,
    companies,
    events,
    ticks,
    gm_audit,
);
diesel::joinable!(gm_audit -> users (user_id));
diesel::joinable!(webhooks -> users (user_id));
diesel::joinable!(alerts -> users (user_id));
diesel::joinable!(deliveries -> webhooks (webhook_id));
diesel::joinable!(deliveries -> push_subscriptions (subscription_id));
diesel::joinable!(push_subscriptions -> users (user_id));
diesel::joinable!(push_settings -> users (user_id));
diesel::joinable!(deliveries -> alerts (alert_id));
