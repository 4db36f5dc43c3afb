//! Tests of the rules engine, named after the rule they check. Numbers come from the rulebook (docs/rules.md).

mod bot;
mod castle;
mod combat;
mod edges_and_cover;
mod movement;
mod properties;
mod ruleset;
mod siege_and_actions;
mod support;
mod tick;
mod vision;
