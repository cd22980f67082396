//! Battles built in code for engine tests: no scenario file needed.
#![allow(dead_code)]

pub mod arrivals;
pub mod cli;
pub mod keys;

use std::sync::Arc;

use ecw_sim::army::{
    Command, CommandKind, Commander, CommanderRating, FootBalance, GunWeight, HorseKind, Side,
    Unit, UnitKind,
};
use ecw_sim::battlefield::Ground;
use ecw_sim::doctrine::DoctrineParams;
use ecw_sim::rules::ironsides::IronsidesRules;
use ecw_sim::setup::{BattleSetup, CommanderSource, Names, RatingSource};

/// A command to deploy: name, kind, doctrine index, and units as (kind, x, inches back).
type Wing = (&'static str, CommandKind, u16, Vec<(UnitKind, f64, f64)>);

/// A club game: per side a wing of horse on each flank, a body of foot and a gun,
/// 24" apart on a 72x48 table.
pub fn small_battle(p_horse: HorseKind, r_horse: HorseKind) -> BattleSetup {
    let rules = Arc::new(IronsidesRules::builtin());
    let mut units = Vec::new();
    let mut commands = Vec::new();
    let mut commanders = Vec::new();
    let mut names = Names::default();
    let doctrines = ["cromwell", "rupert", "hold_the_line", "artillery_train"]
        .map(|n| DoctrineParams::builtin(n).unwrap())
        .to_vec();
    for side in Side::BOTH {
        let (y, facing) = if side == Side::Parliament {
            (12.0, 0.0)
        } else {
            (36.0, std::f64::consts::PI)
        };
        let horse = if side == Side::Parliament {
            p_horse
        } else {
            r_horse
        };
        let horse_doctrine = if side == Side::Parliament { 0 } else { 1 };
        let cg = commanders.len() as u16;
        let mut c = Commander::new(
            cg,
            side,
            CommanderRating {
                lp_modifier: 0,
                radius: 24.0,
                rerolls: 2,
                enemy_rerolls: 0,
            },
        );
        c.is_captain_general = true;
        c.pos = ecw_sim::battlefield::Vec2::new(
            36.0,
            if side == Side::Parliament { 4.0 } else { 44.0 },
        );
        commanders.push(c);
        names.commanders.push(format!("{side} captain-general"));
        let wings: [Wing; 4] = [
            (
                "left horse",
                CommandKind::Horse,
                horse_doctrine,
                vec![
                    (UnitKind::Horse(horse), 10.0, 0.0),
                    (UnitKind::Horse(horse), 14.0, 0.0),
                    (UnitKind::Horse(horse), 12.0, -6.0),
                ],
            ),
            (
                "foot",
                CommandKind::Foot,
                2,
                vec![
                    (UnitKind::Foot(FootBalance::Normal), 28.0, 0.0),
                    (UnitKind::Foot(FootBalance::PikeHeavy), 32.0, 0.0),
                    (UnitKind::Foot(FootBalance::Normal), 36.0, 0.0),
                    (UnitKind::Foot(FootBalance::ShotHeavy), 40.0, 0.0),
                ],
            ),
            (
                "right horse",
                CommandKind::Horse,
                horse_doctrine,
                vec![
                    (UnitKind::Horse(horse), 58.0, 0.0),
                    (UnitKind::Horse(horse), 62.0, 0.0),
                    (UnitKind::Horse(horse), 60.0, -6.0),
                ],
            ),
            (
                "train",
                CommandKind::Artillery,
                3,
                vec![(UnitKind::Artillery(GunWeight::Medium), 44.0, 0.0)],
            ),
        ];
        for (name, kind, doctrine, list) in wings {
            let cmd_id = commands.len() as u16;
            let gid = commanders.len() as u16;
            let mut g = Commander::new(
                gid,
                side,
                CommanderRating {
                    lp_modifier: 0,
                    radius: 12.0,
                    rerolls: 1,
                    enemy_rerolls: 0,
                },
            );
            g.command = Some(cmd_id);
            let mut ids = Vec::new();
            let (mut sx, mut sy) = (0.0, 0.0);
            for (k, x, back) in list {
                let id = units.len() as u16;
                let yy = if side == Side::Parliament {
                    y + back
                } else {
                    y - back
                };
                units.push(Unit::new(id, side, cmd_id, k, 5).at(x, yy, facing));
                names.units.push(format!("{side} {name} {}", ids.len() + 1));
                ids.push(id);
                sx += x;
                sy += yy;
            }
            let n = ids.len() as f64;
            g.pos = ecw_sim::battlefield::Vec2::new(sx / n, sy / n);
            commanders.push(g);
            names.commanders.push(format!("{side} {name} commander"));
            names.commands.push(format!("{side} {name}"));
            commands.push(Command {
                id: cmd_id,
                side,
                kind,
                name: cmd_id,
                commander: Some(gid),
                units: ids,
                lps: 0,
                doctrine,
                commissary: false,
            });
        }
    }
    let n_units = units.len();
    let n_cmdrs = commanders.len();
    BattleSetup {
        name: "small battle".into(),
        rules,
        ruleset_changes: Default::default(),
        ground: Ground::open(72.0, 48.0),
        turn_limit: 16,
        scenario_turn_limit: None,
        break_fraction: 0.5,
        units,
        ratings: vec![RatingSource::Fixed; n_units],
        commanders,
        commander_sources: vec![CommanderSource::Fixed; n_cmdrs],
        commands,
        captain_generals: [Some(0), Some(5)],
        names,
        doctrines,
        cg_doctrine: [2, 2],
        arrivals: Vec::new(),
        reserves: Vec::new(),
    }
}

/// A small battle with random kinds, CVs, positions and doctrines (the property tests' random
/// battle, shared by the rulesets): each unit takes a kind from `kinds` within its arm (a gun
/// stays a gun), a CV from `cvs`, a place from `xs`; each command a doctrine.
pub fn random_battle(
    kinds: &[u8],
    cvs: &[u8],
    xs: &[u8],
    doctrines: &[u8],
    turn_limit: u16,
) -> BattleSetup {
    let mut s = small_battle(HorseKind::Trotters, HorseKind::Gallopers);
    for (i, u) in s.units.iter_mut().enumerate() {
        let k = UnitKind::ALL[usize::from(kinds[i % kinds.len()]) % UnitKind::ALL.len()];
        // Keep each command's arm roughly (a gun stays a gun), but vary type within it.
        if u.kind.is_gun() == k.is_gun() {
            *u = Unit::new(u.id, u.side, u.command, k, u.cv).at(u.pos.x, u.pos.y, u.facing);
        }
        let cv = 1 + cvs[i % cvs.len()] % 7;
        u.cv = cv;
        u.start_cv = cv;
        u.lowest_cv = cv;
        u.pos.x = 4.0 + f64::from(xs[i % xs.len()] % 64);
        if u.side == Side::Royalist {
            u.pos.y += f64::from(xs[(i + 3) % xs.len()] % 8);
        }
    }
    for (i, c) in s.commands.iter_mut().enumerate() {
        c.doctrine = u16::from(doctrines[i % doctrines.len()]) % s.doctrines.len() as u16;
    }
    s.turn_limit = turn_limit;
    s
}
