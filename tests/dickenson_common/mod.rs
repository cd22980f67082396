//! Small Dickenson battles built in code: units placed by hand, one command a side.
#![allow(dead_code)]

use std::f64::consts::PI;
use std::sync::Arc;

use ecw_sim::army::{
    Command, CommandKind, Commander, CommanderRating, Formation, Side, Unit, UnitKind,
};
use ecw_sim::battlefield::Ground;
use ecw_sim::doctrine::DoctrineParams;
use ecw_sim::rules::Ruleset;
use ecw_sim::rules::dickenson::battle::{Battle, Dickenson};
use ecw_sim::setup::{BattleSetup, CommanderSource, Names, RatingSource};

/// One unit: side, kind, men, x, y (Parliament faces +y, the Royalists -y).
pub type Spec = (Side, UnitKind, u32, f64, f64);

/// A battle of these units on an open 72x48 table, one command a side with a general (not
/// with any unit until placed), the given doctrine.
pub fn setup_with(specs: &[Spec], doctrine: &str, ground: Ground) -> BattleSetup {
    let mut units = Vec::new();
    let mut names = Names::default();
    for (i, &(side, kind, men, x, y)) in specs.iter().enumerate() {
        let facing = if side == Side::Parliament { 0.0 } else { PI };
        let mut u = Unit::new(i as u16, side, side.index() as u16, kind, 4).at(x, y, facing);
        u.men = Some(men);
        if matches!(kind, UnitKind::Artillery(_)) {
            u.formation = Formation::Unlimbered; // guns placed here are sited
        }
        units.push(u);
        names.units.push(format!("unit {i}"));
    }
    let rating = CommanderRating {
        lp_modifier: 0,
        radius: 12.0,
        rerolls: 0,
        enemy_rerolls: 0,
    };
    let mut commanders = Vec::new();
    let mut commands = Vec::new();
    for side in Side::BOTH {
        let id = side.index() as u16;
        let mut c = Commander::new(id, side, rating);
        c.command = Some(id);
        commanders.push(c);
        names.commanders.push(format!("{side} general"));
        names.commands.push(format!("{side} command"));
        commands.push(Command {
            id,
            side,
            kind: CommandKind::Foot,
            name: id,
            commander: Some(id),
            units: units
                .iter()
                .filter(|u| u.side == side)
                .map(|u| u.id)
                .collect(),
            lps: 0,
            doctrine: 0,
            commissary: false,
        });
    }
    let n = units.len();
    BattleSetup {
        name: "example".into(),
        rules: Arc::new(ecw_sim::rules::ironsides::IronsidesRules::builtin()),
        ruleset_changes: Default::default(),
        ground,
        turn_limit: 12,
        scenario_turn_limit: None,
        break_fraction: 0.5,
        ratings: vec![RatingSource::Fixed; n],
        units,
        commander_sources: vec![CommanderSource::Fixed; 2],
        commanders,
        commands,
        captain_generals: [None, None],
        names,
        doctrines: vec![DoctrineParams::builtin(doctrine).unwrap()],
        cg_doctrine: [0, 0],
        arrivals: Vec::new(),
        reserves: Vec::new(),
    }
}

pub fn setup(specs: &[Spec]) -> BattleSetup {
    setup_with(specs, "rupert", Ground::open(72.0, 48.0))
}

/// A fresh battle in its first move, Parliament acting first, no general with any unit.
pub fn battle(s: &BattleSetup) -> Battle {
    let mut b = Dickenson::builtin().new_battle(s);
    b.turn = 1;
    b.first = Side::Parliament;
    b
}
