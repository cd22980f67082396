//! The Ironsides EXAMPLE passages fought by the engine itself: each test arranges the
//! passage's situation on the table of `tests/fixtures/worked/engagement.toml` (Cromwell, Ireton
//! and Goring), runs the engine's own step of the turn (`Battle::step`, the same code a whole
//! battle runs) with exactly the text's dice scripted, and asserts the outcome the text states.
//! `tests/worked_examples.rs` checks the same passages against the pure rule functions; this
//! file shows the engine applies them. Scripted dice fail loudly if a die is missing or left
//! over, so each test also pins how many dice the step rolls. Readings are in docs/RULES.md.

use ecw_sim::army::{CommandId, CommanderId, Formation, Side, UnitId, UnitStatus};
use ecw_sim::battlefield::Vec2;
use ecw_sim::dice::ScriptedDice;
use ecw_sim::doctrine::{Doctrine, Order, ParamAi, Responses};
use ecw_sim::events::{Event, EventLog, LossCause, NullObserver, ReactionCause, ReactionResult};
use ecw_sim::rules::ironsides::battle::command::GeneralOrder;
use ecw_sim::rules::ironsides::battle::{Battle, Step, View};
use ecw_sim::scenario::Scenario;
use ecw_sim::setup::BattleSetup;

// Unit ids, in the fixture's order.
const IRETON_1: UnitId = 0;
const IRETON_2: UnitId = 1;
const IRETON_3: UnitId = 2;
const IRETON_4: UnitId = 3;
const LIGHT_GUN: UnitId = 8;
const GORING_1: UnitId = 9;
const GORING_4: UnitId = 12;
const DRAGOONS: UnitId = 13;
const ROYALIST_FOOT: UnitId = 14;
// Commands.
const IRETON: CommandId = 0;

fn engagement() -> BattleSetup {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/worked/engagement.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    Scenario::parse(&path, text, &[], false)
        .unwrap()
        .setup()
        .unwrap()
}

/// The battle at its set-up, every unit far from every other until a test places it.
fn battle(setup: &BattleSetup) -> Battle {
    let mut b = Battle::new(setup);
    b.reset(setup, 0, &mut NullObserver);
    b
}

fn commander_of(b: &Battle, cmd: CommandId) -> CommanderId {
    b.commands[usize::from(cmd)].commander.unwrap()
}

fn place(b: &mut Battle, id: UnitId, x: f64, y: f64, facing_degrees: f64) {
    let u = &mut b.units[usize::from(id)];
    u.pos = Vec2::new(x, y);
    u.facing = facing_degrees.to_radians();
}

/// Moves every unit of `side` but `keep` off to the far corners, out of everyone's reach.
fn clear_away(b: &mut Battle, keep: &[UnitId]) {
    for i in 0..b.units.len() {
        if !keep.contains(&(i as UnitId)) {
            let far = if b.units[i].side == Side::Parliament {
                Vec2::new(2.0 + i as f64 * 4.0, 1.0)
            } else {
                Vec2::new(2.0 + i as f64 * 4.0, 47.0)
            };
            b.units[i].pos = far;
        }
    }
}

/// The doctrine a passage's player follows: ParamAi, except for the choices the text makes.
#[derive(Default)]
struct Player {
    split: Option<Vec<(CommandId, u8)>>,
    orders: Vec<(UnitId, Order)>,
    rally_first: Vec<UnitId>,
    rally_attempts: Vec<(UnitId, u8)>,
    rerolls_on_rally: Option<bool>,
    reaction_rerolls: Option<u8>,
    generals: Vec<(CommanderId, GeneralOrder)>,
    support: bool,
    opportunity: bool,
    /// Units whose orders the built-in doctrine gives (`ParamAi`), not the player.
    by_doctrine: Vec<UnitId>,
}

impl Player {
    /// The player of the engagement's charge: Ireton's first regiment charges Goring's, no
    /// reaction test re-rolled; `support`: the player makes the support charges the text
    /// allows.
    fn ireton_charges_goring(support: bool) -> Player {
        Player {
            orders: vec![(IRETON_1, Order::Charge { target: GORING_1 })],
            reaction_rerolls: Some(0),
            support,
            ..Player::default()
        }
    }
}

impl Doctrine for Player {
    fn general(&mut self, v: &View, g: CommanderId) -> GeneralOrder {
        match self.generals.iter().find(|(k, _)| *k == g) {
            Some((_, o)) => *o,
            None => GeneralOrder {
                to: v.battle.commanders[usize::from(g)].pos,
                attach: None,
                join: None,
            },
        }
    }
    fn split_lps(
        &mut self,
        v: &View,
        cg: CommanderId,
        lps: u8,
        reach: &[bool; 64],
        out: &mut [u8; 64],
    ) {
        match &self.split {
            Some(s) => {
                for &(c, n) in s {
                    out[usize::from(c)] = n;
                }
            }
            None => ParamAi.split_lps(v, cg, lps, reach, out),
        }
    }
    fn rally_priority(&mut self, v: &View, u: UnitId) -> i32 {
        match self.rally_first.iter().position(|&x| x == u) {
            Some(k) => 1000 - k as i32,
            None => ParamAi.rally_priority(v, u),
        }
    }
    fn rally_attempts(&mut self, v: &View, u: UnitId) -> u8 {
        match self.rally_attempts.iter().find(|(k, _)| *k == u) {
            Some((_, n)) => *n,
            None => ParamAi.rally_attempts(v, u),
        }
    }
    fn rerolls_on_rally(&mut self, v: &View, u: UnitId) -> bool {
        self.rerolls_on_rally
            .unwrap_or_else(|| ParamAi.rerolls_on_rally(v, u))
    }
    fn order(&mut self, v: &View, u: UnitId) -> Order {
        if self.by_doctrine.contains(&u) {
            return ParamAi.order(v, u);
        }
        self.orders
            .iter()
            .find(|(k, _)| *k == u)
            .map(|(_, o)| *o)
            .unwrap_or(Order::Hold)
    }
    fn fire_target(&mut self, v: &View, u: UnitId, c: &[UnitId]) -> Option<UnitId> {
        ParamAi.fire_target(v, u, c)
    }
    fn reaction_rerolls(&mut self, v: &View, u: UnitId, available: u8) -> u8 {
        self.reaction_rerolls
            .unwrap_or_else(|| ParamAi.reaction_rerolls(v, u, available))
    }
    fn standoff(&mut self, v: &View, target: UnitId, charger: UnitId) -> f64 {
        ParamAi.standoff(v, target, charger)
    }
    fn responses(&mut self, v: &View, u: UnitId, charger: UnitId) -> Responses {
        ParamAi.responses(v, u, charger)
    }
    fn support_charge(&mut self, _: &View, _: UnitId, _: UnitId) -> bool {
        self.support
    }
    fn opportunity_charge(&mut self, _: &View, _: UnitId, _: UnitId) -> bool {
        self.opportunity
    }
    fn opportunity_charge_at_start(&mut self, _: &View, _: UnitId, _: UnitId) -> bool {
        self.opportunity
    }
    fn retreat_distance(&mut self, v: &View, u: UnitId) -> f64 {
        ParamAi.retreat_distance(v, u)
    }
    fn take_camp(&mut self, v: &View, u: UnitId) -> bool {
        ParamAi.take_camp(v, u)
    }
}

/// Runs one step with exactly `dice`; returns its events.
fn run(b: &mut Battle, setup: &BattleSetup, step: Step, dice: &[u8], p: &mut Player) -> Vec<Event> {
    let mut d = ScriptedDice::new(dice);
    let mut log = EventLog::default();
    b.step(setup, step, &mut d, p, &mut log);
    d.finish();
    log.0
}

// ---------------------------------------------------------------------------------------------

/// E2 and E3, steps 3-4. Cromwell (D6+4, 30") rolls 2: 6 LPs, 2 each to the right horse, the
/// foot and the left horse, "measuring to see whether their general is within 30""; none to the
/// artillery. Ireton (D6+1) rolls 4 and receives Cromwell's 2: 7, counted as 6.
#[test]
fn e02_e03_cromwell_gives_six_lps_within_30_inches_and_ireton_counts_six() {
    let setup = engagement();
    let mut b = battle(&setup);
    b.begin_half(&setup, 1, Side::Parliament, 0);
    let cromwell = setup.captain_generals[0].unwrap();
    b.commanders[usize::from(cromwell)].pos = Vec2::new(36.0, 4.0);
    // Ireton exactly 30" away (within), the foot's and left horse's commanders near, the
    // artillery's 31" away (out of his radius, whatever the split asks).
    let at = |b: &mut Battle, cmd: CommandId, p: Vec2| {
        let g = commander_of(b, cmd);
        b.commanders[usize::from(g)].pos = p;
    };
    at(&mut b, IRETON, Vec2::new(66.0, 4.0));
    at(&mut b, 1, Vec2::new(36.0, 8.0));
    at(&mut b, 2, Vec2::new(14.0, 8.0));
    at(&mut b, 3, Vec2::new(36.0, 35.0));
    let mut player = Player {
        split: Some(vec![(0, 2), (1, 2), (2, 2), (3, 2)]),
        ..Player::default()
    };
    // Cromwell's 2, then each command's own roll in order: Ireton 4, foot 3, left 3, guns 3.
    let ev = run(
        &mut b,
        &setup,
        Step::Leadership,
        &[2, 4, 3, 3, 3],
        &mut player,
    );
    assert!(ev.contains(&Event::LpsRolled {
        general: cromwell,
        roll: 2,
        lps: 6
    }));
    let given: Vec<(CommanderId, u8)> = ev
        .iter()
        .filter_map(|e| match *e {
            Event::LpsGiven { to, lps, .. } => Some((to, lps)),
            _ => None,
        })
        .collect();
    let to = |cmd: CommandId| commander_of(&b, cmd);
    assert_eq!(
        given,
        vec![(to(0), 2), (to(1), 2), (to(2), 2)],
        "none to the artillery"
    );
    // E3: 4 + 1 + 2 = 7, but no command has more than 6.
    assert_eq!(b.commands[usize::from(IRETON)].lps, 6);
    // The others: 3 + 2 each; the artillery its own 3.
    assert_eq!(b.commands[1].lps, 5);
    assert_eq!(b.commands[3].lps, 3);
}

/// E5, step 6. Ireton has 3 LPs; unit X (CV6) and unit Y (CV5, "a weaker unit (CV4)" after
/// the artillery) each lost 1 CV to artillery, both over 10" from the enemy: 1 LP a try. X: one
/// try, rolls 3, regains its CV. Y: two tries, 5 (fails against CV4) then 4 (passes): CV 5. No
/// RR used though he could.
#[test]
fn e05_ireton_rallies_two_units_with_three_lps() {
    let setup = engagement();
    let mut b = battle(&setup);
    clear_away(&mut b, &[IRETON_1, IRETON_2]);
    place(&mut b, IRETON_1, 50.0, 10.0, 0.0);
    place(&mut b, IRETON_2, 54.0, 10.0, 0.0);
    b.begin_half(&setup, 1, Side::Parliament, 0);
    let ireton = commander_of(&b, IRETON);
    b.commanders[usize::from(ireton)].pos = Vec2::new(52.0, 8.0);
    b.units[usize::from(IRETON_1)].cv = 5; // X: CV6, lost 1
    b.units[usize::from(IRETON_1)].lowest_cv = 5;
    b.units[usize::from(IRETON_2)].start_cv = 5; // Y: CV5, lost 1
    b.units[usize::from(IRETON_2)].cv = 4;
    b.units[usize::from(IRETON_2)].lowest_cv = 4;
    b.commands[usize::from(IRETON)].lps = 3;
    let mut player = Player {
        rally_first: vec![IRETON_1, IRETON_2],
        rally_attempts: vec![(IRETON_1, 1), (IRETON_2, 2)],
        rerolls_on_rally: Some(false),
        ..Player::default()
    };
    let ev = run(&mut b, &setup, Step::Rallies, &[3, 5, 4], &mut player);
    let rallies: Vec<(UnitId, u8, bool)> = ev
        .iter()
        .filter_map(|e| match *e {
            Event::Rally {
                unit,
                roll,
                success,
                ..
            } => Some((unit, roll, success)),
            _ => None,
        })
        .collect();
    assert_eq!(
        rallies,
        vec![
            (IRETON_1, 3, true),
            (IRETON_2, 5, false),
            (IRETON_2, 4, true)
        ]
    );
    assert_eq!(b.units[usize::from(IRETON_1)].cv, 6);
    assert_eq!(b.units[usize::from(IRETON_2)].cv, 5);
    assert_eq!(b.commands[usize::from(IRETON)].lps, 0);
    assert_eq!(
        b.commanders[usize::from(ireton)].rerolls_left,
        2,
        "no RR used"
    );
}

/// E9 and E10, steps 8-9. The Royalist dragoons (skirmishers, CV4) at the hedge's end fire at
/// Ireton's end regiment at 4": long range, +3; they roll 1: 4 <= 4, a hit. The regiment, now
/// CV5, tests reaction: 2 and 6, passing one; Ireton re-rolls the 6 with an RR and scores 3: it
/// passes both and may complete its move; Ireton has 1 RR left.
#[test]
fn e09_e10_dragoons_hit_at_long_range_and_ireton_rerolls_the_reaction() {
    let setup = engagement();
    let mut b = battle(&setup);
    clear_away(&mut b, &[IRETON_3, DRAGOONS]);
    place(&mut b, IRETON_3, 58.0, 20.0, 0.0);
    // The dragoons (2" frontage dismounted, 1" deep) face the regiment 4" from its front edge.
    place(&mut b, DRAGOONS, 58.0, 25.0, 180.0);
    b.begin_half(&setup, 1, Side::Parliament, 0);
    let ireton = commander_of(&b, IRETON);
    b.commanders[usize::from(ireton)].pos = Vec2::new(56.0, 16.0);
    let mut player = Player::default();
    let ev = run(
        &mut b,
        &setup,
        Step::OtherSideFires,
        &[1, 2, 6, 3],
        &mut player,
    );
    let shot = ev
        .iter()
        .find_map(|e| match *e {
            Event::Fired {
                unit,
                target,
                range,
                roll,
                needed,
                hit,
            } => Some((unit, target, range, roll, needed, hit)),
            _ => None,
        })
        .expect("the dragoons fire");
    assert_eq!(shot.0, DRAGOONS);
    assert_eq!(shot.1, IRETON_3);
    assert!((shot.2 - 4.0).abs() < 1e-9, "at 4\": {}", shot.2);
    assert_eq!(
        (shot.3, shot.4, shot.5),
        (1, 1, true),
        "needs 1: 1 + 3 <= 4"
    );
    assert!(ev.contains(&Event::Reaction {
        unit: IRETON_3,
        cause: ReactionCause::Fire,
        dice: [2, 3],
        result: ReactionResult::PassBoth,
        rerolls_used: 1,
    }));
    assert_eq!(b.units[usize::from(IRETON_3)].cv, 5);
    assert!(
        !b.units[usize::from(IRETON_3)].no_advance,
        "it completes its move"
    );
    assert_eq!(b.commanders[usize::from(ireton)].rerolls_left, 1);
}

/// E11 and E12, steps 10-11. The light gun (CV5) fires at Royalist foot 8" away: long range,
/// +3; it rolls 1: 4 <= 5, a hit. The foot, now CV4, rolls 3 and 5: passes one and cannot
/// advance this turn (an RR could repeat the 5; the player does not use one).
#[test]
fn e11_e12_the_light_gun_hits_at_long_range_and_the_foot_may_not_advance() {
    let setup = engagement();
    let mut b = battle(&setup);
    clear_away(&mut b, &[LIGHT_GUN, ROYALIST_FOOT]);
    place(&mut b, LIGHT_GUN, 36.0, 20.0, 0.0);
    b.units[usize::from(LIGHT_GUN)].formation = Formation::Unlimbered;
    // Gun 1" deep, foot 1" deep: 8" between their nearest edges.
    place(&mut b, ROYALIST_FOOT, 36.0, 29.0, 180.0);
    b.begin_half(&setup, 1, Side::Parliament, 0);
    let mut player = Player {
        reaction_rerolls: Some(0),
        ..Player::default()
    };
    let ev = run(
        &mut b,
        &setup,
        Step::MovingSideFires,
        &[1, 3, 5],
        &mut player,
    );
    assert!(ev.iter().any(|e| matches!(
        *e,
        Event::Fired {
            unit: LIGHT_GUN,
            target: ROYALIST_FOOT,
            roll: 1,
            needed: 2,
            hit: true,
            ..
        }
    )));
    assert!(ev.contains(&Event::Reaction {
        unit: ROYALIST_FOOT,
        cause: ReactionCause::Fire,
        dice: [3, 5],
        result: ReactionResult::PassOne,
        rerolls_used: 0,
    }));
    let foot = &b.units[usize::from(ROYALIST_FOOT)];
    assert_eq!(foot.cv, 4);
    assert!(foot.no_advance, "passing one: no advance this turn");
}

/// E8, step 8. The light gun may fire three times in a turn: once in its own half and twice in
/// the enemy's (or in reaction to a charge); a fourth shot is refused.
#[test]
fn e08_the_light_gun_fires_three_times_a_turn_and_no_more() {
    let setup = engagement();
    let mut b = battle(&setup);
    clear_away(&mut b, &[LIGHT_GUN, ROYALIST_FOOT]);
    place(&mut b, LIGHT_GUN, 36.0, 20.0, 0.0);
    b.units[usize::from(LIGHT_GUN)].formation = Formation::Unlimbered;
    place(&mut b, ROYALIST_FOOT, 36.0, 29.0, 180.0);
    b.units[usize::from(ROYALIST_FOOT)].cv = 7; // misses cost no reaction test
    b.begin_half(&setup, 1, Side::Parliament, 0);
    let mut p = Player::default();
    // Its own phase: one shot (a miss, 6).
    let shots = |ev: &[Event]| {
        ev.iter()
            .filter(|e| matches!(e, Event::Fired { .. }))
            .count()
    };
    assert_eq!(
        shots(&run(&mut b, &setup, Step::MovingSideFires, &[6], &mut p)),
        1
    );
    // The enemy's half: fire in both of its fire steps.
    b.begin_half(&setup, 1, Side::Royalist, 1);
    assert_eq!(
        shots(&run(&mut b, &setup, Step::OtherSideFires, &[6], &mut p)),
        1
    );
    assert_eq!(
        shots(&run(&mut b, &setup, Step::OtherSideFires, &[6], &mut p)),
        1
    );
    // A fourth chance in the same turn: refused, no die rolled.
    assert_eq!(
        shots(&run(&mut b, &setup, Step::OtherSideFires, &[], &mut p)),
        0
    );
    // The next turn it has its three again.
    b.begin_half(&setup, 2, Side::Parliament, 0);
    assert_eq!(
        shots(&run(&mut b, &setup, Step::MovingSideFires, &[6], &mut p)),
        1
    );
}

/// E4, step 5. Ireton's six regiments in two lines all make the same manoeuvre: one group, 1
/// LP. Two of them "out of position" (here: wheeling to a new direction) move separately at 1
/// LP each: 3 LPs in all.
#[test]
fn e04_six_regiments_in_two_lines_with_two_out_of_position_cost_three_lps() {
    let setup = engagement();
    let ahead = |b: &Battle, u: UnitId| b.units[usize::from(u)].pos + Vec2::new(0.0, 6.0);
    // (second line's distance behind, units out of position, LPs): a second line 20" back is
    // no longer "moving together" with the first: two groups.
    for (behind, out_of_position, cost) in [(5.0, 0, 1), (5.0, 2, 3), (20.0, 0, 2)] {
        let mut b = battle(&setup);
        clear_away(&mut b, &[0, 1, 2, 3, 4, 5]);
        // Front line at y = 25, second line behind it, 4" apart (1" gaps between 3" frontages).
        for (k, x) in [50.0, 54.0, 58.0].into_iter().enumerate() {
            place(&mut b, k as UnitId, x, 25.0, 0.0);
            place(&mut b, k as UnitId + 3, x, 25.0 - behind, 0.0);
        }
        b.begin_half(&setup, 1, Side::Parliament, 0);
        let ireton = commander_of(&b, IRETON);
        b.commanders[usize::from(ireton)].pos = Vec2::new(54.0, 15.0);
        b.commands[usize::from(IRETON)].lps = 6;
        let mut orders: Vec<(UnitId, Order)> = (0..6)
            .map(|u| (u, Order::Advance { to: ahead(&b, u) }))
            .collect();
        // Out of position: two of the second line wheel off to the right.
        for (u, order) in orders.iter_mut().skip(3).take(out_of_position) {
            *order = Order::Advance {
                to: b.units[usize::from(*u)].pos + Vec2::new(6.0, 0.0),
            };
        }
        let mut p = Player {
            orders,
            ..Player::default()
        };
        // Trotters in open ground roll nothing to move.
        run(&mut b, &setup, Step::Movement, &[], &mut p);
        assert_eq!(
            6 - b.commands[usize::from(IRETON)].lps,
            cost,
            "{out_of_position} out of position, second line {behind}\" behind"
        );
        assert!(b.units[..6].iter().all(|u| u.moved), "all six moved");
    }
}

/// E19, step 15. Goring's winners (CV3, +1 for victory: CV4) must halt or pursue: gallopers roll
/// 2D6 summed against CV: 2 + 6 = 8 > 4, they fail, lose 1 CV (CV3) and plough D6 x 3" into
/// Ireton's support regiment (CV6), which stands in their path. Both throw 2D6 at once: Goring
/// 2 and 3, Ireton 1 and 5: each inflicts 2, the melee continues next turn; Goring's men are at
/// 1, the support regiment at 4. (The pursuit die is not given: a 3, 9".)
#[test]
fn e19_goring_fails_to_halt_loses_a_cv_and_ploughs_into_the_support() {
    let setup = engagement();
    let mut b = battle(&setup);
    clear_away(&mut b, &[GORING_1, IRETON_1, IRETON_4]);
    // Ireton 1 has just lost the melee and retreated behind its support, Ireton 4, 6" back.
    place(&mut b, GORING_1, 50.0, 18.0, 180.0);
    place(&mut b, IRETON_4, 50.0, 10.0, 0.0);
    place(&mut b, IRETON_1, 50.0, 4.0, 0.0);
    b.units[usize::from(GORING_1)].cv = 4; // 3 + 1 for the victory
    b.units[usize::from(GORING_1)].pursuing = 0;
    b.begin_half(&setup, 1, Side::Parliament, 0);
    // Halt test 2 and 6; pursuit die 3 (9"); the fight: Goring 2, 3; Ireton 1, 5.
    let mut d = ScriptedDice::new(&[2, 6, 3, 2, 3, 1, 5]);
    let mut log = EventLog::default();
    b.in_turn(&setup, &mut d, &mut Player::default(), &mut log)
        .pursue_after_victory(GORING_1, IRETON_1);
    d.finish();
    let ev = log.0;
    let g = &b.units[usize::from(GORING_1)];
    let s = &b.units[usize::from(IRETON_4)];
    assert_eq!((g.cv, s.cv), (1, 4), "{ev:#?}");
    assert!(g.pinned && s.pinned, "equal losses: the melee continues");
    // The text's order: the CV for haring off is lost before the fight.
    let lost: Vec<(UnitId, u8)> = ev
        .iter()
        .filter_map(|e| match *e {
            Event::CvLost { unit, cv, .. } => Some((unit, cv)),
            _ => None,
        })
        .collect();
    assert_eq!(
        lost[0],
        (GORING_1, 3),
        "1 CV for the pursuit first: {lost:?}"
    );
}

/// E1, step 2. Cromwell rides up to 36" if he only observes; attaching to a unit costs 12", so
/// riding to lead a regiment 30" away he gets only 24" of the way this turn; one 20" away he
/// reaches and leads.
#[test]
fn e01_cromwell_rides_36_inches_or_24_if_he_attaches() {
    let setup = engagement();
    let cromwell = setup.captain_generals[0].unwrap();
    let start = Vec2::new(20.0, 4.0);
    for (to, attach, ridden, leads) in [
        (Vec2::new(70.0, 4.0), None, 36.0, None),
        (Vec2::new(50.0, 4.0), Some(IRETON_1), 24.0, None),
        (Vec2::new(40.0, 4.0), Some(IRETON_1), 20.0, Some(IRETON_1)),
    ] {
        let mut b = battle(&setup);
        place(&mut b, IRETON_1, to.x, to.y, 0.0);
        b.begin_half(&setup, 1, Side::Parliament, 0);
        b.commanders[usize::from(cromwell)].pos = start;
        let mut p = Player {
            generals: vec![(
                cromwell,
                GeneralOrder {
                    to,
                    attach,
                    join: None,
                },
            )],
            ..Player::default()
        };
        run(&mut b, &setup, Step::MoveGenerals, &[], &mut p);
        let g = &b.commanders[usize::from(cromwell)];
        assert!(
            (g.pos.dist(start) - ridden).abs() < 1e-9,
            "{attach:?}: rode {}",
            g.pos.dist(start)
        );
        assert_eq!(g.attached_unit, leads);
    }
}

/// E7, step 7. A light gun (12") advances and unlimbers: unlimbering costs 6", so it moves at
/// most 6" and ends unlimbered; the drivers go home and it never limbers again (a later move
/// is by prolonge, 2").
#[test]
fn e07_the_light_gun_moves_six_inches_then_unlimbers_for_good() {
    let setup = engagement();
    let mut b = battle(&setup);
    clear_away(&mut b, &[LIGHT_GUN]);
    place(&mut b, LIGHT_GUN, 36.0, 8.0, 0.0);
    assert_eq!(
        b.units[usize::from(LIGHT_GUN)].formation,
        Formation::Limbered
    );
    b.begin_half(&setup, 1, Side::Parliament, 0);
    let guns = commander_of(&b, 3);
    b.commanders[usize::from(guns)].pos = Vec2::new(36.0, 6.0);
    b.commands[3].lps = 6;
    let mut p = Player {
        orders: vec![(
            LIGHT_GUN,
            Order::Site {
                to: Vec2::new(36.0, 30.0),
            },
        )],
        ..Player::default()
    };
    let ev = run(&mut b, &setup, Step::Movement, &[], &mut p);
    let gun = &b.units[usize::from(LIGHT_GUN)];
    assert_eq!(
        gun.formation,
        Formation::Unlimbered,
        "{ev:?} lps {}",
        b.commands[3].lps
    );
    assert!(
        (gun.pos.y - 14.0).abs() < 1e-9,
        "6\" of its 12\": at y {}",
        gun.pos.y
    );
    assert!(ev.contains(&Event::Unlimbered { unit: LIGHT_GUN }));
    // Next turn: sited guns move by prolonge only, and cannot be limbered.
    b.begin_half(&setup, 2, Side::Parliament, 0);
    b.commands[3].lps = 6;
    p.orders = vec![(
        LIGHT_GUN,
        Order::Advance {
            to: Vec2::new(36.0, 30.0),
        },
    )];
    run(&mut b, &setup, Step::Movement, &[], &mut p);
    assert!((b.units[usize::from(LIGHT_GUN)].pos.y - 16.0).abs() < 1e-9);
    p.orders = vec![(
        LIGHT_GUN,
        Order::Site {
            to: Vec2::new(36.0, 30.0),
        },
    )];
    b.begin_half(&setup, 3, Side::Parliament, 0);
    run(&mut b, &setup, Step::Movement, &[], &mut p);
    assert!(
        (b.units[usize::from(LIGHT_GUN)].pos.y - 16.0).abs() < 1e-9,
        "no limbering again"
    );
}

/// E13, step 12. Ireton's front regiment charges the Royalist horse holding 10" away: it
/// advances to the stand-off the target chooses (2"-6") and tests reaction, needing both dice
/// to make contact; passing both, the charge goes in.
#[test]
fn e13_the_charge_closes_to_the_stand_off_and_goes_in_on_passing_both() {
    let setup = engagement();
    let mut b = battle(&setup);
    clear_away(&mut b, &[IRETON_1, GORING_1]);
    place(&mut b, IRETON_1, 50.0, 20.0, 0.0);
    place(&mut b, GORING_1, 50.0, 31.0, 180.0); // 10" between their fronts
    b.begin_half(&setup, 2, Side::Parliament, 0);
    let ireton = commander_of(&b, IRETON);
    b.commanders[usize::from(ireton)].pos = Vec2::new(50.0, 14.0);
    b.commands[usize::from(IRETON)].lps = 6;
    let mut p = Player::ireton_charges_goring(false);
    run(&mut b, &setup, Step::Movement, &[], &mut p);
    let ev = run(&mut b, &setup, Step::CompleteMovement, &[2, 4], &mut p);
    let standoff = ev
        .iter()
        .find_map(|e| match *e {
            Event::ChargeDeclared {
                unit: IRETON_1,
                target: GORING_1,
                standoff,
            } => Some(standoff),
            _ => None,
        })
        .expect("the charge is declared");
    assert!((2.0..=6.0).contains(&standoff));
    assert!((b.distance(IRETON_1, GORING_1) - standoff).abs() < 1e-6);
    assert!(ev.contains(&Event::Reaction {
        unit: IRETON_1,
        cause: ReactionCause::ToCharge,
        dice: [2, 4],
        result: ReactionResult::PassBoth,
        rerolls_used: 0,
    }));
    assert!(!ev.iter().any(|e| matches!(e, Event::ChargeFailed { .. })));
}

/// E20, risk to generals. Goring is attached to a unit that loses 2 CV in melee: a 2 in 6
/// chance; he rolls 2 and is hit. Horse and rider: the rider's die is higher (horse 3, rider 5,
/// not given), so the rider is hit; the rider table gives 6: saved by his flask, unhurt, and the
/// regiment gains 1 CV.
#[test]
fn e20_goring_is_hit_and_saved_by_his_flask() {
    use ecw_sim::events::{GeneralResult, LossCause};
    let setup = engagement();
    let mut b = battle(&setup);
    let goring = commander_of(&b, 4);
    b.commanders[usize::from(goring)].attached_unit = Some(GORING_1);
    b.units[usize::from(GORING_1)].cv = 5; // not at its start, so the +1 is not capped away
    let mut d = ScriptedDice::new(&[2, 3, 5, 6]);
    let mut log = EventLog::default();
    b.in_turn(&setup, &mut d, &mut ParamAi, &mut log)
        .lose_cv(GORING_1, 2, LossCause::Melee);
    d.finish();
    assert!(log.0.contains(&Event::GeneralCasualty {
        general: goring,
        result: GeneralResult::Saved,
        captured: false,
    }));
    assert_eq!(b.units[usize::from(GORING_1)].cv, 4, "5 - 2 + 1");
    assert!(!b.commanders[usize::from(goring)].lost);
}

/// E20 in a melee, through the engine: Goring is attached to a regiment that loses 2 CV in one
/// round of a melee that goes on (Ireton's trotters, pinned against it, roll 2 dice and hit with
/// both; Goring's men miss with theirs and his re-rolls). The loss is one loss of 2 CV, so he
/// rolls once, a 2 in 6 chance: he rolls 2 and is hit (horse 3, rider 5: the rider, bloodied
/// but unbowed). Rolled for each CV of the loss apart, the 2 would have been a miss against 1,
/// and a second die thrown.
#[test]
fn e20_a_melee_loss_of_2_cv_is_one_risk_to_the_general_at_2_in_6() {
    use ecw_sim::events::GeneralResult;
    let setup = engagement();
    let mut b = battle(&setup);
    clear_away(&mut b, &[IRETON_1, GORING_1]);
    place(&mut b, IRETON_1, 50.0, 24.0, 0.0);
    place(&mut b, GORING_1, 50.0, 26.0, 180.0);
    for (u, e) in [(IRETON_1, GORING_1), (GORING_1, IRETON_1)] {
        b.units[usize::from(u)].pinned = true;
        b.units[usize::from(u)].engaged_with = Some(e);
    }
    b.begin_half(&setup, 2, Side::Parliament, 0);
    let goring = commander_of(&b, 4);
    b.commanders[usize::from(goring)].attached_unit = Some(GORING_1);
    b.commanders[usize::from(goring)].pos = b.units[usize::from(GORING_1)].pos;
    let mut p = Player {
        reaction_rerolls: Some(0),
        ..Player::default()
    };
    let dice = [
        1, 1, // Ireton's regiment: 2 dice, 2 hits
        6, 6, // Goring's: no hits
        6, 6, // Goring's re-rolls of both misses (he is attached): no hit
        2, // the risk to Goring: one die for the loss of 2 CV, 2 in 6: hit
        3, 5, // horse 3, rider 5: the rider takes it
        5, // bloodied but unbowed
        5, 5, // Goring's regiment, the loser, tests at CV 4, 2 off each die: passes both
        1, // Ireton's trotters, victorious, halt
    ];
    let ev = run(&mut b, &setup, Step::ContinuingMelees, &dice, &mut p);
    let lost: Vec<_> = ev
        .iter()
        .filter_map(|e| match *e {
            Event::CvLost { unit, amount, .. } => Some((unit, amount)),
            _ => None,
        })
        .collect();
    assert_eq!(lost, [(GORING_1, 2)], "one loss of 2 CV: {ev:#?}");
    assert!(
        ev.contains(&Event::GeneralCasualty {
            general: goring,
            result: GeneralResult::Unhurt,
            captured: false,
        }),
        "{ev:#?}"
    );
}

/// E14 to E19 in one charge, through the engine's steps 12-15: Ireton's left-flank regiment
/// (trotters, CV6) charges its direct opponent of Goring's (gallopers, CV6) 6" away.
/// - E13: it closes to the stand-off and passes both reaction dice (1, 2): the charge goes in.
/// - E14: Goring's regiment passes both (1, 2), so throws 2 emergency-response dice (1, 1):
///   one success countercharges, the other is a pistol shot as they come together.
/// - E16: the free shot (trotting pistols +4 at CV6 hits on 1-2; the text says "needing a 1",
///   see docs/RULES.md) misses (3). Both roll 4D6 (a charge of 6"); Ireton's trotters need not
///   spend a die firing.
/// - E17: Ireton rolls 1, 3, 4, 6 and Goring 1, 4, 4, 5: sixes always miss: Ireton inflicts 3
///   and takes 4: Ireton CV 2, Goring CV 3; Goring wins.
/// - E18: Ireton's regiment, the loser, tests 2D6 at CV2: 1 and 4, fails one: it retreats
///   behind its support, not a rout.
/// - E19: Goring's men +1 CV for victory (4); halt test 2 + 6 = 8 > 4, they pursue: -1 CV (3),
///   D6 x 3" (a 3: 9") into Ireton's support (CV6); 2D6 each at once, Goring 2 and 3, the
///   support 1 and 5: 2 each, the melee goes on; Goring's men at 1, the support at 4.
#[test]
fn e14_to_e19_the_charge_the_countercharge_the_melee_and_the_pursuit() {
    let setup = engagement();
    let mut b = battle(&setup);
    clear_away(&mut b, &[IRETON_1, IRETON_4, GORING_1]);
    // Ireton's regiment 6" from Goring's, its support just behind it.
    place(&mut b, IRETON_1, 50.0, 24.0, 0.0);
    place(&mut b, IRETON_4, 50.0, 22.0, 0.0);
    place(&mut b, GORING_1, 50.0, 31.0, 180.0);
    b.begin_half(&setup, 2, Side::Parliament, 0);
    let ireton = commander_of(&b, IRETON);
    b.commanders[usize::from(ireton)].pos = Vec2::new(44.0, 14.0);
    b.commands[usize::from(IRETON)].lps = 6;
    let mut p = Player::ireton_charges_goring(false);
    run(&mut b, &setup, Step::Movement, &[], &mut p);
    run(&mut b, &setup, Step::CompleteMovement, &[1, 2], &mut p);
    let dice = [
        1, 2, // E14: Goring's regiment reacts, passes both
        1, 1, // E14: two emergency-response dice, two successes
        3, // E16: the free pistol shot misses
        1, 3, 4, 6, // E17: Ireton
        1, 4, 4, 5, // E17: Goring
        1, 4, // E18: Ireton's loser's test
        2, 6, // E19: the halt test
        3, // E19: the pursuit die
        2, 3, 1, 5, // E19: the fight with the support
    ];
    let ev = run(&mut b, &setup, Step::Charges, &dice, &mut p);
    let shown = || format!("{ev:#?}");
    assert!(
        ev.iter().any(|e| matches!(
            *e,
            Event::EmergencyResponse {
                unit: GORING_1,
                dice: 2,
                successes: 2,
                ..
            }
        )),
        "{}",
        shown()
    );
    assert!(ev.iter().any(|e| matches!(
        *e,
        Event::Fired {
            unit: GORING_1,
            target: IRETON_1,
            roll: 3,
            hit: false,
            ..
        }
    )));
    assert!(
        ev.iter().any(|e| matches!(
            *e,
            Event::Melee {
                attacker: IRETON_1,
                defender: GORING_1,
                attacker_dice: 4,
                defender_dice: 4,
                attacker_hits: 3,
                defender_hits: 4,
                flank: false,
            }
        )),
        "{}",
        shown()
    );
    assert!(ev.contains(&Event::MeleeResult {
        winner: Some(GORING_1),
        loser: Some(IRETON_1),
        result: ReactionResult::PassOne,
    }));
    assert!(
        ev.iter()
            .any(|e| matches!(*e, Event::Retreat { unit: IRETON_1, .. }))
    );
    assert!(!ev.iter().any(|e| matches!(*e, Event::Rout { .. })));
    let (g, s, i) = (
        &b.units[usize::from(GORING_1)],
        &b.units[usize::from(IRETON_4)],
        &b.units[usize::from(IRETON_1)],
    );
    assert_eq!((i.cv, g.cv, s.cv), (2, 1, 4), "{}", shown());
    assert!(
        g.pinned && s.pinned,
        "equal losses: the melee continues next turn"
    );
    assert!(
        i.pos.y < s.pos.y - 1.0,
        "Ireton's regiment retired behind its support: {:?} {:?}",
        i.pos,
        s.pos
    );
}

// ---------------------------------------------------------------------------------------------
// Rules the examples touch on, shown on the same table.
// ---------------------------------------------------------------------------------------------

/// "Once a general is attached ... he moves again to accompany the unit when it moves"; and a
/// rout sweeps him away: "embarrassed gentlemen swept away in routs return to their command
/// after one full turn away".
#[test]
fn an_attached_general_rides_with_his_unit_and_is_swept_away_by_its_rout() {
    let setup = engagement();
    let mut b = battle(&setup);
    clear_away(&mut b, &[IRETON_3, DRAGOONS]);
    place(&mut b, IRETON_3, 58.0, 14.0, 0.0);
    place(&mut b, DRAGOONS, 58.0, 25.0, 180.0);
    b.begin_half(&setup, 1, Side::Parliament, 0);
    let ireton = commander_of(&b, IRETON);
    b.commanders[usize::from(ireton)].pos = Vec2::new(58.0, 14.0);
    b.commanders[usize::from(ireton)].attached_unit = Some(IRETON_3);
    b.commands[usize::from(IRETON)].lps = 6;
    let mut p = Player {
        orders: vec![(
            IRETON_3,
            Order::Advance {
                to: Vec2::new(58.0, 30.0),
            },
        )],
        reaction_rerolls: Some(0),
        ..Player::default()
    };
    run(&mut b, &setup, Step::Movement, &[], &mut p);
    let unit = b.units[usize::from(IRETON_3)].pos;
    assert!(unit.y > 14.0, "it advanced");
    assert_eq!(
        b.commanders[usize::from(ireton)].pos,
        unit,
        "he rode with it"
    );
    // The dragoons hit it (1); its reaction is a pair of sixes: rout, 5D6" (all ones, 5").
    // His attached risk: the unit lost 1 CV, he is hit on a 1 (a 4: unhurt).
    let ev = run(
        &mut b,
        &setup,
        Step::OtherSideFires,
        &[1, 4, 6, 6, 1, 1, 1, 1, 1],
        &mut p,
    );
    assert!(
        ev.iter()
            .any(|e| matches!(*e, Event::Rout { unit: IRETON_3, .. })),
        "{ev:#?}"
    );
    let g = &b.commanders[usize::from(ireton)];
    assert_eq!(g.attached_unit, None, "swept away");
    assert!(!g.available(), "out of action for a full turn");
}

/// E15's situation up to step 14: Ireton's first regiment has moved to charge Goring's first,
/// and Goring's fourth stands beside the fight facing the wrong way (the charger is behind its
/// front arc); Goring has no re-rolls left.
fn goring_fourth_beside_the_fight(setup: &BattleSetup) -> (Battle, Player) {
    let mut b = battle(setup);
    clear_away(&mut b, &[IRETON_1, GORING_1, GORING_4]);
    place(&mut b, IRETON_1, 50.0, 24.0, 0.0);
    place(&mut b, GORING_1, 50.0, 31.0, 180.0);
    place(&mut b, GORING_4, 56.0, 33.0, 0.0);
    b.begin_half(setup, 2, Side::Parliament, 0);
    let ireton = commander_of(&b, IRETON);
    b.commanders[usize::from(ireton)].pos = Vec2::new(44.0, 14.0);
    b.commands[usize::from(IRETON)].lps = 6;
    let goring = commander_of(&b, 4);
    b.commanders[usize::from(goring)].rerolls_left = 0;
    let mut p = Player::ireton_charges_goring(true);
    run(&mut b, setup, Step::Movement, &[], &mut p);
    run(&mut b, setup, Step::CompleteMovement, &[1, 2], &mut p);
    (b, p)
}

/// E15, step 14. Goring's fourth regiment could reach the fight by refacing and charging. It
/// makes no reaction test but rolls 2D6 for the emergency response (Goring's RRs went on E14's
/// double six) and passes only one (1 and 6): it needs two successes, reface and charge, so it
/// only refaces, "in a better position if things go badly", and stays out of the melee.
#[test]
fn e15_the_fourth_regiment_passes_one_response_and_only_refaces() {
    let setup = engagement();
    let (mut b, mut p) = goring_fourth_beside_the_fight(&setup);
    let before = b.units[usize::from(GORING_4)].facing;
    let dice = [
        1, 2, // Goring 1 reacts: passes both
        1, 1, // its two responses: countercharge and the free shot
        3, // the free shot misses (it is an emergency response: before step 14)
        1, 6, // E15: the fourth regiment's two response dice: one success
        1, 1, 6, 6, // Ireton: 2 hits
        1, 1, 6, 6, // Goring: 2 hits; equal losses, both stay in contact
    ];
    let ev = run(&mut b, &setup, Step::Charges, &dice, &mut p);
    assert!(
        ev.contains(&Event::SupportCharge {
            unit: GORING_4,
            target: IRETON_1,
            successes: 1
        }),
        "{ev:#?}"
    );
    let g4 = &b.units[usize::from(GORING_4)];
    assert!(
        (g4.facing - before).abs() > 1.0,
        "it refaced towards the charger"
    );
    assert!(b.in_front_arc(GORING_4, IRETON_1));
    assert!(!g4.pinned && g4.cv == 6, "it did not join the melee");
    assert!(ev.iter().any(|e| matches!(
        *e,
        Event::Melee {
            attacker: IRETON_1,
            defender: GORING_1,
            attacker_hits: 2,
            defender_hits: 2,
            ..
        }
    )));
}

/// Step 14 told: the E15 situation, but the fourth regiment passes both response dice (1, 1),
/// refaces and charges in beside Goring's regiment. The `Melee` event sums each side's dice;
/// the `Supported` event beside it names the supporter with its own dice and hits, and the
/// replay line and the events CSV both say them.
#[test]
fn a_support_charge_is_named_with_its_own_dice_in_the_melee_lines() {
    use ecw_sim::events::Observer;
    use ecw_sim::narrative::{Currency, Recorder, event_line, events_csv};
    let setup = engagement();
    let (mut b, mut p) = goring_fourth_beside_the_fight(&setup);
    let dice = [
        1, 2, // Goring 1 reacts: passes both
        1, 1, // its two responses: countercharge and the free shot
        3, // the free shot misses
        1, 1, // the fourth regiment: two successes, it refaces and charges in
        1, 1, 6, 6, // Ireton: 2 hits, shared: one on Goring 1, one on the fourth regiment
        6, 6, 6, 6, // Goring 1: no hits
        1, 1, 6, 6, // the fourth regiment, charging in: 4 dice, 2 hits; equal losses, pinned
    ];
    let ev = run(&mut b, &setup, Step::Charges, &dice, &mut p);
    let told: Vec<_> = ev
        .iter()
        .filter(|e| matches!(e, Event::Melee { .. } | Event::Supported { .. }))
        .copied()
        .collect();
    assert_eq!(
        told,
        [
            Event::Melee {
                attacker: IRETON_1,
                defender: GORING_1,
                attacker_dice: 4,
                defender_dice: 8,
                attacker_hits: 2,
                defender_hits: 2,
                flank: false,
            },
            Event::Supported {
                unit: GORING_4,
                main: GORING_1,
                dice: 4,
                hits: 2,
            },
        ],
        "{ev:#?}"
    );
    let line = event_line(&setup, Currency::Cv, told[1]).unwrap();
    let (name4, name1) = (
        setup.unit_name(GORING_4).to_string(),
        setup.unit_name(GORING_1).to_string(),
    );
    assert!(
        line.contains(&name4) && line.contains(&name1) && line.contains("4 of those dice"),
        "{line}"
    );
    let mut rec = Recorder::default();
    for e in &ev {
        rec.event(e);
    }
    let csv = events_csv(&setup, Currency::Cv, &rec);
    let row = csv
        .lines()
        .find(|l| l.contains(",supported,"))
        .expect("a supported row");
    assert!(row.contains(&name4) && row.contains("dice=4"), "{row}");
    let cvs: Vec<_> = [IRETON_1, GORING_1, GORING_4]
        .map(|u| b.units[usize::from(u)].cv)
        .into();
    assert_eq!(
        cvs,
        [4, 5, 5],
        "Ireton's 2 hits shared between the two: {ev:#?}"
    );
}

/// E6, step 7. Ireton's trotters (18") advance; a low hedge before one regiment costs D6" (a
/// 4) and a 3" strip of bog before another is crossed at 1/4 speed (12"). To keep his line at
/// one pace Ireton slows it all to about 6": ordered 6" forward, all three arrive abreast, the
/// two that crossed the hedge and the bog disordered, the third not.
#[test]
fn e06_the_line_slows_to_six_inches_across_the_hedge_and_the_bog() {
    let setup = e06_setup();
    let mut b = battle(&setup);
    clear_away(&mut b, &[IRETON_1, IRETON_2, IRETON_3]);
    for (u, x) in [(IRETON_1, 50.0), (IRETON_2, 54.0), (IRETON_3, 58.0)] {
        place(&mut b, u, x, 20.0, 0.0);
    }
    b.begin_half(&setup, 1, Side::Parliament, 0);
    let ireton = commander_of(&b, IRETON);
    b.commanders[usize::from(ireton)].pos = Vec2::new(54.0, 16.0);
    b.commands[usize::from(IRETON)].lps = 6;
    let mut p = Player {
        orders: [IRETON_1, IRETON_2, IRETON_3]
            .map(|u| {
                let at = b.units[usize::from(u)].pos;
                (
                    u,
                    Order::Advance {
                        to: at + Vec2::new(0.0, 6.0),
                    },
                )
            })
            .to_vec(),
        ..Player::default()
    };
    // The hedge's D6: a 4.
    run(&mut b, &setup, Step::Movement, &[4], &mut p);
    for u in [IRETON_1, IRETON_2, IRETON_3] {
        let y = b.units[usize::from(u)].pos.y;
        assert!(
            (y - 26.0).abs() < 1e-9,
            "unit {u} at y {y}: the line keeps one pace"
        );
    }
    let disordered = [IRETON_1, IRETON_2, IRETON_3].map(|u| b.units[usize::from(u)].disordered);
    assert_eq!(disordered, [true, false, true]);
    // Alone, at full pace, the bogged regiment makes only 9" of its 18" (1.5" + 3" of bog at
    // 12" + 4.5" more).
    let mut b = battle(&setup);
    clear_away(&mut b, &[IRETON_3]);
    place(&mut b, IRETON_3, 58.0, 20.0, 0.0);
    b.begin_half(&setup, 1, Side::Parliament, 0);
    b.commanders[usize::from(ireton)].pos = Vec2::new(54.0, 16.0);
    b.commands[usize::from(IRETON)].lps = 6;
    p.orders = vec![(
        IRETON_3,
        Order::Advance {
            to: Vec2::new(58.0, 40.0),
        },
    )];
    run(&mut b, &setup, Step::Movement, &[], &mut p);
    let y = b.units[usize::from(IRETON_3)].pos.y;
    assert!((y - 29.0).abs() < 1e-6, "alone it makes 9\": at y {y}");
}

/// E6's table: the engagement with a low hedge before Ireton 1 and a 3" strip of bog before
/// Ireton 3.
fn e06_setup() -> BattleSetup {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/worked/engagement.toml");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(
        r#"
[[terrain.obstacles]]
kind = "hedge"
name = "A low hedge before Ireton 1"
points = [[48.0, 22.5], [52.0, 22.5]]

[[terrain.areas]]
kind = "bog"
name = "A 3-inch strip of bog before Ireton 3"
points = [[56.0, 21.5], [60.0, 21.5], [60.0, 24.5], [56.0, 24.5]]
"#,
    );
    Scenario::parse(&path, text, &[], false)
        .unwrap()
        .setup()
        .unwrap()
}

/// E6 through the doctrine: the same line under Ireton's own doctrine (`cromwell`), with
/// Goring's horse far ahead. The doctrine, not a player, orders the pace: the three trotters
/// side by side make one line, and the line goes at the pace of its slowest unit, the one
/// before the bog (9"), so all three end abreast, 9" on. With `dress_lines` off, each goes at
/// its own pace: 9", 14" past the hedge (its D6 a 4) and the full 18".
#[test]
fn e06_the_doctrine_paces_its_line_to_its_slowest_unit() {
    let setup = e06_setup();
    let ends = |dress: bool| {
        let mut setup = setup.clone();
        for d in &mut setup.doctrines {
            d.dress_lines = dress;
        }
        let mut b = battle(&setup);
        clear_away(&mut b, &[IRETON_1, IRETON_2, IRETON_3, GORING_1, 10, 11]);
        for (u, x) in [(IRETON_1, 50.0), (IRETON_2, 54.0), (IRETON_3, 58.0)] {
            place(&mut b, u, x, 20.0, 0.0);
        }
        for (u, x) in [(GORING_1, 50.0), (10, 54.0), (11, 58.0)] {
            place(&mut b, u, x, 46.0, 180.0);
        }
        b.begin_half(&setup, 1, Side::Parliament, 0);
        let ireton = commander_of(&b, IRETON);
        b.commanders[usize::from(ireton)].pos = Vec2::new(54.0, 16.0);
        b.commands[usize::from(IRETON)].lps = 6;
        let mut p = Player {
            by_doctrine: vec![IRETON_1, IRETON_2, IRETON_3],
            ..Player::default()
        };
        run(&mut b, &setup, Step::Movement, &[4], &mut p); // the hedge's D6
        [IRETON_1, IRETON_2, IRETON_3].map(|u| b.units[usize::from(u)].pos.y)
    };
    let dressed = ends(true);
    for y in dressed {
        assert!(
            (y - 29.0).abs() < 1e-6,
            "the line keeps the bog's pace: {dressed:?}"
        );
    }
    let ragged = ends(false);
    let want = [34.0, 38.0, 29.0];
    for (y, w) in ragged.iter().zip(want) {
        assert!((y - w).abs() < 1e-6, "each at its own pace: {ragged:?}");
    }
}

/// A fixture of `tests/fixtures/`.
fn fixture(name: &str) -> BattleSetup {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    Scenario::parse(&path, text, &[], false)
        .unwrap()
        .setup()
        .unwrap()
}

/// The fire of one step: (firer, roll, hit) of each shot.
fn shots_of(ev: &[Event]) -> Vec<(UnitId, u8, bool)> {
    ev.iter()
        .filter_map(|e| match *e {
            Event::Fired {
                unit, roll, hit, ..
            } => Some((unit, roll, hit)),
            _ => None,
        })
        .collect()
}

/// "Cowardly wretch; enemy gets 1RR against his units each turn". Blue's colonel has no
/// re-rolls; Red's is the wretch. Blue's first miss at Red in a turn is re-rolled (6, then 1:
/// a hit), its second is not; Red's own miss at Blue is not; the next turn the gift is new.
#[test]
fn the_enemy_of_a_cowardly_wretch_rerolls_one_die_a_turn_against_his_units() {
    const BLUE: UnitId = 0;
    const RED: UnitId = 1;
    let setup = fixture("wretch.toml");
    let mut b = battle(&setup);
    // 2" apart (volley range), face to face; both commanders beside their men.
    place(&mut b, BLUE, 36.0, 20.0, 0.0);
    place(&mut b, RED, 36.0, 23.0, 180.0);
    b.commanders[0].pos = Vec2::new(36.0, 17.0);
    b.commanders[1].pos = Vec2::new(36.0, 26.0);
    let mut p = Player {
        reaction_rerolls: Some(0),
        ..Player::default()
    };
    b.begin_half(&setup, 1, Side::Parliament, 0);
    // Blue misses (6), re-rolls with the gift and hits (1); Red tests reaction (1, 1).
    let ev = run(&mut b, &setup, Step::MovingSideFires, &[6, 1, 1, 1], &mut p);
    assert_eq!(shots_of(&ev), [(BLUE, 1, true)]);
    assert_eq!(b.units[usize::from(RED)].cv, 3);
    b.begin_half(&setup, 1, Side::Royalist, 1);
    // Red misses at Blue: no gift for Red (Blue's colonel is no wretch), no re-roll.
    let ev = run(&mut b, &setup, Step::MovingSideFires, &[6], &mut p);
    assert_eq!(shots_of(&ev), [(RED, 6, false)]);
    // Blue misses again in the same turn: the gift is spent.
    let ev = run(&mut b, &setup, Step::OtherSideFires, &[6], &mut p);
    assert_eq!(shots_of(&ev), [(BLUE, 6, false)]);
    // A new turn, a new gift.
    b.begin_half(&setup, 2, Side::Parliament, 0);
    let ev = run(&mut b, &setup, Step::MovingSideFires, &[6, 2, 1, 1], &mut p);
    assert_eq!(shots_of(&ev), [(BLUE, 2, true)]);
}

/// Ireton's first two regiments side by side facing Goring's first two (Goring's second
/// `goring_2_y` up the table), and `others` placed as (unit, x, y, facing); everyone else
/// cleared away. Parliament's half-turn 2 begins with Ireton behind his line with 6 LPs and
/// Goring without re-rolls.
fn two_pairs_facing(
    setup: &BattleSetup,
    goring_2_y: f64,
    others: &[(UnitId, f64, f64, f64)],
) -> Battle {
    const GORING_2: UnitId = 10;
    let mut b = battle(setup);
    let mut keep = vec![IRETON_1, IRETON_2, GORING_1, GORING_2];
    keep.extend(others.iter().map(|o| o.0));
    clear_away(&mut b, &keep);
    place(&mut b, IRETON_1, 50.0, 24.0, 0.0);
    place(&mut b, IRETON_2, 58.0, 24.0, 0.0);
    place(&mut b, GORING_1, 50.0, 31.0, 180.0);
    place(&mut b, GORING_2, 58.0, goring_2_y, 180.0);
    for &(u, x, y, facing) in others {
        place(&mut b, u, x, y, facing);
    }
    b.begin_half(setup, 2, Side::Parliament, 0);
    let ireton = commander_of(&b, IRETON);
    b.commanders[usize::from(ireton)].pos = Vec2::new(54.0, 14.0);
    b.commands[usize::from(IRETON)].lps = 6;
    let goring = commander_of(&b, 4);
    b.commanders[usize::from(goring)].rerolls_left = 0;
    b
}

/// Step 14, one support charge a half-turn. Two of Ireton's regiments charge two of Goring's
/// side by side; Goring's fourth regiment, between and behind them and facing away, could
/// support either. It tests for the first (1 and 6: one success, so it only refaces, as in
/// E15) and, its countercharge spent, does not test again for the second charger, although it
/// is within reach (2" x CV).
#[test]
fn a_unit_makes_one_support_charge_a_half_turn() {
    const IRETON_2: UnitId = 1;
    const GORING_2: UnitId = 10;
    let setup = engagement();
    let mut b = two_pairs_facing(&setup, 31.0, &[(GORING_4, 54.0, 34.0, 0.0)]);
    let mut p = Player {
        orders: vec![
            (IRETON_1, Order::Charge { target: GORING_1 }),
            (IRETON_2, Order::Charge { target: GORING_2 }),
        ],
        reaction_rerolls: Some(0),
        support: true,
        ..Player::default()
    };
    run(&mut b, &setup, Step::Movement, &[], &mut p);
    run(
        &mut b,
        &setup,
        Step::CompleteMovement,
        &[1, 2, 1, 2],
        &mut p,
    );
    let dice = [
        1, 2, // Goring 1 reacts: passes both
        1, 1, // its responses: countercharge and the free shot
        3, // the free shot misses (it is an emergency response: before step 14)
        1, 6, // the fourth regiment's response dice: one success, it refaces
        1, 1, 6, 6, // Ireton 1: 2 hits
        1, 1, 6, 6, // Goring 1: 2 hits; both stay in contact
        1, 2, // Goring 2 reacts: passes both
        1, 1, // its responses
        3, // its free shot misses (no support test: the fourth regiment has made one)
        1, 1, 6, 6, // Ireton 2
        1, 1, 6, 6, // Goring 2
    ];
    let ev = run(&mut b, &setup, Step::Charges, &dice, &mut p);
    let supports: Vec<_> = ev
        .iter()
        .filter(|e| matches!(e, Event::SupportCharge { .. }))
        .collect();
    assert_eq!(
        supports,
        [&Event::SupportCharge {
            unit: GORING_4,
            target: IRETON_1,
            successes: 1
        }],
        "{ev:#?}"
    );
    let reach =
        setup.rules.charge.support_charge_per_cv * f64::from(b.units[usize::from(GORING_4)].cv);
    assert!(
        b.distance(GORING_4, IRETON_2) <= reach,
        "the second charger was within its reach"
    );
    assert!(!b.units[usize::from(GORING_4)].pinned);
    for (a, d) in [(IRETON_1, GORING_1), (IRETON_2, GORING_2)] {
        assert!(ev.iter().any(|e| matches!(
            *e,
            Event::Melee {
                attacker,
                defender,
                attacker_hits: 2,
                defender_hits: 2,
                ..
            } if attacker == a && defender == d
        )));
    }
}

/// Step 14 and the pursuit: "A victorious cavalry unit that does halt and regain composure may
/// charge again on its next turn, or, if the enemy turn comes first, as an opportunity or
/// support charge": not again in the half-turn it has charged and fought in. Ireton's first
/// regiment charges Goring's first and beats it (3 hits to none; Goring's holds and retires)
/// and halts; at the end of the move Goring's second makes an opportunity charge at Ireton's
/// second. Ireton's first, free, unengaged and within 2" x CV of that charger, makes no support
/// charge: its charge this half-turn is spent. With `charge.no_second_charge_a_half_turn =
/// false` it tests for one (6, 6: no success, the melee is the same).
#[test]
fn a_unit_that_charged_and_fought_makes_no_support_charge_the_same_half_turn() {
    let supports = |spent: bool| {
        let (b, ev) = charge_won_then_opportunity_charge(spent);
        let i1 = &b.units[usize::from(IRETON_1)];
        assert!(i1.is_active() && !i1.pinned && i1.pursuing == 0);
        let reach = b.distance(IRETON_1, 10);
        assert!(
            reach <= 2.0 * f64::from(i1.cv),
            "the opportunity charger was within its reach: {reach}"
        );
        ev.iter()
            .filter(|e| matches!(**e, Event::SupportCharge { unit, .. } if unit == IRETON_1))
            .count()
    };
    assert_eq!(supports(true), 0, "its charge this half-turn is spent");
    assert_eq!(supports(false), 1, "the old reading: it may support");
}

/// The situation of the test above; `spent` is `charge.no_second_charge_a_half_turn`.
fn charge_won_then_opportunity_charge(spent: bool) -> (Battle, Vec<Event>) {
    let mut setup = engagement();
    std::sync::Arc::make_mut(&mut setup.rules)
        .charge
        .no_second_charge_a_half_turn = spent;
    let mut b = two_pairs_facing(&setup, 33.0, &[]);
    let ireton = commander_of(&b, IRETON);
    b.commanders[usize::from(ireton)].rerolls_left = 0;
    let goring = commander_of(&b, 4);
    b.commanders[usize::from(goring)].pos = Vec2::new(70.0, 46.0);
    let mut p = Player::ireton_charges_goring(true);
    run(&mut b, &setup, Step::Movement, &[], &mut p);
    // Ireton 1 passes its test to close (1, 2); at the end of the move Goring 2's opportunity
    // charge (response dice 1, 1).
    p.opportunity = true;
    run(
        &mut b,
        &setup,
        Step::CompleteMovement,
        &[1, 2, 1, 1],
        &mut p,
    );
    let mut dice = vec![
        1, 2, // Goring 1 reacts: passes both
        1, 1, // its responses: countercharge and the free shot
        3, // the free shot misses
        1, 1, 1, 6, // Ireton 1: 3 hits
        6, 6, 6, 6, // Goring 1: none
        1, 2, // Goring 1 lost: passes both, and as horse retires
        1, // Ireton 1's halt test (trotters, 1D6 <= CV): it halts
        1, 2, // Ireton 2, charged by Goring 2, reacts: passes both
        1, 1, // its responses: countercharge and the free shot
        3, // the free shot misses
    ];
    if !spent {
        dice.extend([6, 6]); // Ireton 1's support test: no success
    }
    dice.extend([
        6, 6, 6, 6, // Goring 2: no hits
        6, 6, 6, 6, // Ireton 2: no hits; both stay in contact
    ]);
    let ev = run(&mut b, &setup, Step::Charges, &dice, &mut p);
    assert!(
        ev.iter()
            .any(|e| matches!(*e, Event::PursuitHalted { unit, .. } if unit == IRETON_1)),
        "Ireton 1 won and halted: {ev:#?}"
    );
    (b, ev)
}

/// Step 15, "Test morale (2 D6) vs loser of most CV this close combat": Ireton 1 (CV 4)
/// charges Goring 1, down to its last CV; each side scores one hit, so each loses one CV, but
/// Goring 1 is gone. A side wiped out has lost whatever the count: Ireton 1 wins, gains its CV
/// for the victory (back to 4) and takes its halt test (a 1: it halts). With
/// `close_combat.wiped_out_side_loses = false` the old count: equal losses, nobody wins, no CV
/// and no halt test.
#[test]
fn a_side_wiped_out_loses_the_melee_though_the_losses_are_equal() {
    let (b, ev) = charge_at_the_last_cv(true);
    let i1 = &b.units[usize::from(IRETON_1)];
    assert!(
        ev.contains(&Event::MeleeResult {
            winner: Some(IRETON_1),
            loser: Some(GORING_1),
            result: ReactionResult::PassBoth,
        }),
        "{ev:#?}"
    );
    assert!(ev.contains(&Event::CvGained {
        unit: IRETON_1,
        amount: 1,
        cv: 4
    }));
    assert!(ev.contains(&Event::PursuitHalted {
        unit: IRETON_1,
        turns: 0
    }));
    assert_eq!(i1.cv, 4);
    assert!(!i1.pinned && i1.engaged_with.is_none());
    let (b, ev) = charge_at_the_last_cv(false);
    assert!(
        ev.iter().any(|e| matches!(
            *e,
            Event::MeleeResult {
                winner: None,
                loser: None,
                ..
            }
        )),
        "the old count: {ev:#?}"
    );
    assert!(!ev.iter().any(|e| matches!(
        *e,
        Event::CvGained { .. } | Event::PursuitHalted { .. } | Event::PursuitStarted { .. }
    )));
    assert_eq!(b.units[usize::from(IRETON_1)].cv, 3);
}

/// The situation of the test above; `wiped` is `close_combat.wiped_out_side_loses`.
fn charge_at_the_last_cv(wiped: bool) -> (Battle, Vec<Event>) {
    let mut setup = engagement();
    std::sync::Arc::make_mut(&mut setup.rules)
        .close_combat
        .wiped_out_side_loses = wiped;
    let mut b = battle(&setup);
    clear_away(&mut b, &[IRETON_1, GORING_1]);
    place(&mut b, IRETON_1, 50.0, 24.0, 0.0);
    place(&mut b, GORING_1, 50.0, 31.0, 180.0);
    b.units[usize::from(IRETON_1)].cv = 4;
    b.units[usize::from(GORING_1)].cv = 1;
    b.begin_half(&setup, 2, Side::Parliament, 0);
    let ireton = commander_of(&b, IRETON);
    b.commanders[usize::from(ireton)].pos = Vec2::new(44.0, 14.0);
    b.commanders[usize::from(ireton)].rerolls_left = 0;
    b.commands[usize::from(IRETON)].lps = 6;
    let goring = commander_of(&b, 4);
    b.commanders[usize::from(goring)].rerolls_left = 0;
    let mut p = Player::ireton_charges_goring(false);
    run(&mut b, &setup, Step::Movement, &[], &mut p);
    run(&mut b, &setup, Step::CompleteMovement, &[1, 2], &mut p);
    let mut dice = vec![
        1, 1, // Goring 1 reacts: passes both
        6, 6, // its emergency responses: no success, it stands
        1, 6, 6, 6, // Ireton 1: 1 hit, Goring 1's last CV
        1, 6, // Goring 1, standing: 1 hit
    ];
    if wiped {
        dice.push(1); // Ireton 1's halt test (trotters, 1D6 <= CV): it halts
    }
    let ev = run(&mut b, &setup, Step::Charges, &dice, &mut p);
    assert!(
        ev.iter().any(|e| matches!(
            *e,
            Event::Melee {
                attacker: IRETON_1,
                defender: GORING_1,
                attacker_hits: 1,
                defender_hits: 1,
                ..
            }
        )),
        "{ev:#?}"
    );
    assert!(!b.units[usize::from(GORING_1)].is_active());
    (b, ev)
}

/// Step 14: "an Opportunity Charge at the start or end of their opponent's movement phase".
/// The Parliament foot is ordered forward; before it moves, Goring's regiment, 8" off and
/// facing it, charges (response dice 1 and 1). The foot reacts (passes both), its responses
/// fail (6, 6), and the melee (no hits either way) pins it: it does not advance.
#[test]
fn an_opportunity_charge_goes_in_at_the_start_of_the_enemy_move() {
    const FOOT: UnitId = 4;
    let setup = engagement();
    let mut b = battle(&setup);
    clear_away(&mut b, &[FOOT, GORING_1]);
    place(&mut b, FOOT, 50.0, 25.0, 0.0);
    place(&mut b, GORING_1, 50.0, 34.0, 180.0);
    b.begin_half(&setup, 2, Side::Parliament, 0);
    b.commands[1].lps = 6;
    let goring = commander_of(&b, 4);
    b.commanders[usize::from(goring)].rerolls_left = 0;
    let gap = b.distance(FOOT, GORING_1);
    assert!(
        (6.0..=12.0).contains(&gap),
        "8\" apart, within 2\" x CV: {gap}"
    );
    let mut p = Player {
        orders: vec![(
            FOOT,
            Order::Advance {
                to: Vec2::new(50.0, 40.0),
            },
        )],
        reaction_rerolls: Some(0),
        opportunity: true,
        ..Player::default()
    };
    let dice = [
        1, 1, // Goring's regiment: two response dice, the charge goes in
        1, 1, // the foot reacts: passes both
        6, 6, // its two responses: none
        6, 6, 6, 6, // Goring at full speed: 4 dice, no hits
        6, 6, // the foot: 2 dice, no hits
    ];
    let ev = run(&mut b, &setup, Step::Movement, &dice, &mut p);
    let first_charge = ev
        .iter()
        .position(|e| {
            *e == Event::SupportCharge {
                unit: GORING_1,
                target: FOOT,
                successes: 2,
            }
        })
        .expect("the opportunity charge");
    let melee = ev
        .iter()
        .position(|e| {
            matches!(
                *e,
                Event::Melee {
                    attacker: GORING_1,
                    defender: FOOT,
                    attacker_dice: 4,
                    defender_dice: 2,
                    ..
                }
            )
        })
        .expect("the melee");
    assert!(first_charge < melee, "{ev:#?}");
    assert!(
        !ev.iter()
            .any(|e| matches!(*e, Event::Moved { unit: FOOT, .. })),
        "the foot, pinned, does not advance: {ev:#?}"
    );
    assert!(b.units[usize::from(FOOT)].pinned);
}

/// The target of an opportunity charge that buys "fire" shoots the charger as it comes on, at
/// the charge's stand-off (a declared charge halts there to test), not from where it began.
/// Goring's regiment, 10" off the light gun, charges it as Parliament's move begins (response
/// dice 1 and 1); the gun passes both (1, 1), buys its one response (1, 6) and fires: at 6",
/// long range, +3, it rolls 6 and misses.
#[test]
fn a_response_shot_at_an_opportunity_charger_is_taken_at_the_stand_off() {
    let setup = engagement();
    let mut b = opportunity_at_the_gun(&setup);
    let mut p = opportunist();
    let dice = [
        1, 1, // Goring's regiment: two response dice, the charge goes in
        1, 1, // the gun reacts: passes both
        1, 6, // its two responses: one success
        6, // its shot: a miss
        6, 6, 6, 6, // Goring at full speed: 4 dice, no hits
        6, 6, // the gun's crew: no hits
    ];
    let ev = run(&mut b, &setup, Step::Movement, &dice, &mut p);
    let shot = ev.iter().find_map(|e| match *e {
        Event::Fired {
            unit: LIGHT_GUN,
            target: GORING_1,
            range,
            ..
        } => Some(range),
        _ => None,
    });
    assert_eq!(shot, Some(6.0), "{ev:#?}");
}

/// A response is bought only if it can be made: a gun that has fired its three shots this turn
/// spends no success on "fire" (the text: "check you haven't already fired all the shots you
/// are allowed for the turn"), and so tells of no such response.
#[test]
fn a_gun_with_no_shot_left_buys_no_fire_response() {
    let setup = engagement();
    let mut b = opportunity_at_the_gun(&setup);
    b.units[usize::from(LIGHT_GUN)].shots_fired = 3;
    let mut p = opportunist();
    let dice = [
        1, 1, // Goring's regiment: the charge goes in
        1, 1, // the gun passes both
        1, 6, // one success, which nothing it wants can use
        6, 6, 6, 6, // Goring: no hits
        6, 6, // the gun's crew: no hits
    ];
    let ev = run(&mut b, &setup, Step::Movement, &dice, &mut p);
    assert!(
        !ev.iter().any(|e| matches!(
            *e,
            Event::EmergencyResponse {
                unit: LIGHT_GUN,
                ..
            } | Event::Fired {
                unit: LIGHT_GUN,
                ..
            }
        )),
        "{ev:#?}"
    );
}

/// A player who takes every opportunity charge and spends no re-roll on reactions.
fn opportunist() -> Player {
    Player {
        reaction_rerolls: Some(0),
        opportunity: true,
        ..Player::default()
    }
}

/// Goring's first regiment facing the unlimbered light gun, 10" off, as Parliament's move
/// begins, with the rest of the field out of reach.
fn opportunity_at_the_gun(setup: &BattleSetup) -> Battle {
    let mut b = battle(setup);
    clear_away(&mut b, &[LIGHT_GUN, GORING_1]);
    place(&mut b, LIGHT_GUN, 50.0, 25.0, 0.0);
    b.units[usize::from(LIGHT_GUN)].formation = Formation::Unlimbered;
    place(&mut b, GORING_1, 50.0, 36.5, 180.0);
    b.begin_half(setup, 2, Side::Parliament, 0);
    let goring = commander_of(&b, 4);
    b.commanders[usize::from(goring)].rerolls_left = 0;
    let gap = b.distance(LIGHT_GUN, GORING_1);
    assert!((9.5..=10.5).contains(&gap), "about 10\" apart: {gap}");
    b
}

/// Camps: "the fire locks will test reaction ... They will give fire, and, if the attackers
/// come to close combat, count as being in soft cover". A Parliament regiment in pursuit fails
/// its halt test (6), pays its CV (6 to 5) and rides 18" into the Royalist camp with no enemy
/// ahead; it passes to close (1, 1); the guards stand (1, 1) and give fire (1: a hit, CV 4);
/// the fight (6, 6 against 6, 6) takes nothing, so the camp holds.
#[test]
fn camp_guards_give_fire_before_the_melee() {
    const RIDER: UnitId = 0;
    let setup = fixture("camp_raid.toml");
    let mut b = battle(&setup);
    clear_away(&mut b, &[RIDER]);
    // The Royalists behind the rider, out of its front arc.
    for (k, id) in [3, 4, 5, 6, 7].into_iter().enumerate() {
        place(&mut b, id, 48.0 + 5.0 * k as f64, 2.0, 180.0);
    }
    for (i, g) in b.commanders.iter_mut().enumerate() {
        g.pos = Vec2::new(1.0 + i as f64, 24.0);
    }
    let camp = setup.ground.camps[0].pos;
    place(&mut b, RIDER, camp.x, camp.y - 18.0, 0.0);
    b.units[usize::from(RIDER)].pursuing = 1;
    b.begin_half(&setup, 3, Side::Parliament, 0);
    let mut p = Player {
        reaction_rerolls: Some(0),
        ..Player::default()
    };
    let ev = run(
        &mut b,
        &setup,
        Step::Pursuers,
        &[6, 1, 1, 1, 1, 1, 6, 6, 6, 6],
        &mut p,
    );
    let losses: Vec<_> = ev
        .iter()
        .filter_map(|e| match *e {
            Event::CvLost {
                unit: RIDER,
                cause,
                cv,
                ..
            } => Some((cause, cv)),
            _ => None,
        })
        .collect();
    assert_eq!(
        losses,
        [(LossCause::Pursuit, 5), (LossCause::Fire, 4)],
        "{ev:#?}"
    );
    assert!(b.units[usize::from(RIDER)].pos.dist(camp) <= setup.ground.camps[0].radius);
    assert!(!ev.iter().any(|e| matches!(e, Event::CampCaptured { .. })));
}

/// Ruling (docs/RULES.md): a gun abandoned by its routing crew stays where it stood; at its
/// side's rally phase its gunners come back for 1 LP on 1D6 <= CV, but not while an enemy is
/// within 6" of it; manned again, it fires.
#[test]
fn gunners_return_to_their_abandoned_gun_when_no_enemy_is_near() {
    let setup = engagement();
    let mut b = battle(&setup);
    clear_away(&mut b, &[LIGHT_GUN, DRAGOONS]);
    place(&mut b, LIGHT_GUN, 36.0, 20.0, 0.0);
    b.units[usize::from(LIGHT_GUN)].formation = Formation::Unlimbered;
    place(&mut b, DRAGOONS, 36.0, 25.0, 180.0);
    let mut p = Player::default();
    // The dragoons hit the gun (1); its reaction is a pair of sixes: rout, 3D6" (all ones).
    b.begin_half(&setup, 1, Side::Royalist, 0);
    let ev = run(
        &mut b,
        &setup,
        Step::MovingSideFires,
        &[1, 6, 6, 1, 1, 1],
        &mut p,
    );
    assert!(
        ev.iter().any(|e| matches!(
            *e,
            Event::Rout {
                unit: LIGHT_GUN,
                ..
            }
        )),
        "{ev:#?}"
    );
    let gun = &b.units[usize::from(LIGHT_GUN)];
    assert_eq!(gun.status, UnitStatus::Abandoned);
    assert_eq!(
        gun.pos,
        Vec2::new(36.0, 20.0),
        "the gun stays where it stood"
    );
    let cmd = usize::from(gun.command);
    // The dragoons stand within 6" of it: the gunners do not come back; no die, no LP.
    b.begin_half(&setup, 2, Side::Parliament, 0);
    b.commands[cmd].lps = 1;
    let ev = run(&mut b, &setup, Step::Rallies, &[], &mut p);
    assert!(!ev.iter().any(|e| matches!(e, Event::Remanned { .. })));
    assert_eq!(
        b.units[usize::from(LIGHT_GUN)].status,
        UnitStatus::Abandoned
    );
    assert_eq!(b.commands[cmd].lps, 1);
    // The dragoons draw off to 12": the gunners return on a 6 > CV (fail), then on a 4.
    place(&mut b, DRAGOONS, 36.0, 33.0, 180.0);
    b.begin_half(&setup, 3, Side::Parliament, 0);
    b.commands[cmd].lps = 1;
    let ev = run(&mut b, &setup, Step::Rallies, &[6], &mut p);
    assert!(ev.contains(&Event::Remanned {
        unit: LIGHT_GUN,
        roll: 6,
        success: false
    }));
    assert_eq!(
        b.units[usize::from(LIGHT_GUN)].status,
        UnitStatus::Abandoned
    );
    assert_eq!(b.commands[cmd].lps, 0, "the try cost its LP");
    // No LP, no try.
    b.begin_half(&setup, 4, Side::Parliament, 0);
    b.commands[cmd].lps = 0;
    let ev = run(&mut b, &setup, Step::Rallies, &[], &mut p);
    assert!(!ev.iter().any(|e| matches!(e, Event::Remanned { .. })));
    b.begin_half(&setup, 5, Side::Parliament, 0);
    b.commands[cmd].lps = 1;
    // Manned again (CV 4 after the hit), out of its commander's radius it then tries the free
    // 2D6 rally as any unit would (6 and 6: it fails).
    let ev = run(&mut b, &setup, Step::Rallies, &[4, 6, 6], &mut p);
    assert!(ev.contains(&Event::Remanned {
        unit: LIGHT_GUN,
        roll: 4,
        success: true
    }));
    let gun = &b.units[usize::from(LIGHT_GUN)];
    assert_eq!(gun.status, UnitStatus::Active);
    assert!(!gun.broken, "manned again, no longer routed");
    assert_eq!(gun.pos, Vec2::new(36.0, 20.0));
    // Manned again, it fires at the dragoons (a miss, 6).
    let ev = run(&mut b, &setup, Step::MovingSideFires, &[6], &mut p);
    assert!(
        ev.iter().any(|e| matches!(
            *e,
            Event::Fired {
                unit: LIGHT_GUN,
                ..
            }
        )),
        "{ev:#?}"
    );
}

/// Fail both reaction dice: "retire at least 4\"", the distance the player's to choose. The
/// doctrine's choice stops at its own table edge when a shorter retreat is allowed: Ireton's
/// regiment 5" from Parliament's edge retires 5", not its doctrine's longer distance off the
/// table; 30" from it, the doctrine's own; a Royalist regiment 3" from its edge is asked for
/// 3", which the rules' least (4") takes off the table all the same.
#[test]
fn a_retreat_stops_at_its_own_edge_when_a_shorter_one_is_allowed() {
    let setup = engagement();
    let mut b = battle(&setup);
    let own = |b: &Battle, u: UnitId| {
        let c = b.units[usize::from(u)].command;
        setup.doctrines[usize::from(setup.commands[usize::from(c)].doctrine)].retreat_distance
    };
    assert!(
        own(&b, IRETON_1) > 5.0,
        "a doctrine that retires farther than 5\""
    );
    place(&mut b, IRETON_1, 50.0, 5.0, 0.0);
    assert_eq!(ParamAi.retreat_distance(&b.view(&setup), IRETON_1), 5.0);
    place(&mut b, IRETON_1, 50.0, 30.0, 0.0);
    let d = ParamAi.retreat_distance(&b.view(&setup), IRETON_1);
    assert_eq!(d, own(&b, IRETON_1));
    place(&mut b, GORING_1, 50.0, setup.ground.depth - 3.0, 180.0);
    assert_eq!(ParamAi.retreat_distance(&b.view(&setup), GORING_1), 3.0);
}
