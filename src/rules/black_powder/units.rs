//! Black Powder units derived from a scenario's regiments: figures from men at the figure scale,
//! size, quality, stamina, special rules, and the elements that move and fight (a foot regiment
//! is a pike block and two sleeves of shot sharing one morale).

use super::tables::{BlackPowderRules, Quality, SpecialRule};
use crate::army::{GunWeight, HorseKind, Side, SizeClass, Unit, UnitKind};

/// What an element is, for stats, moves and modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Troop {
    Pike,
    /// A sleeve of shot.
    Musket,
    Horse(HorseKind),
    Dragoon,
    Skirmisher,
    Gun(GunWeight),
}

impl Troop {
    pub fn is_cavalry(self) -> bool {
        matches!(self, Troop::Horse(_))
    }
    /// Foot that forms hedgehog and counts as infantry for Lance.
    pub fn is_infantry(self) -> bool {
        matches!(
            self,
            Troop::Pike | Troop::Musket | Troop::Skirmisher | Troop::Dragoon
        )
    }
    pub fn is_gun(self) -> bool {
        matches!(self, Troop::Gun(_))
    }
}

/// Tiny, Small or Standard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SizeBand {
    Tiny,
    Small,
    Standard,
}

/// A set of special rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Specials(pub u16);

impl Specials {
    pub fn has(self, r: SpecialRule) -> bool {
        self.0 & r.bit() != 0
    }
    pub fn with(self, r: SpecialRule) -> Specials {
        Specials(self.0 | r.bit())
    }
    fn add_all(&mut self, rules: &[SpecialRule]) {
        for r in rules {
            *self = self.with(*r);
        }
    }
}

/// Figures for `men` at one figure to `scale` men, to the nearest figure (at least one).
pub fn figures(men: u32, scale: u32) -> u32 {
    ((men + scale / 2) / scale.max(1)).max(1)
}

/// Tiny up to `tiny_max` figures (exactly 10 is Tiny), Small up to `small_max`, else Standard.
pub fn size_band(figures: u32, rules: &BlackPowderRules) -> SizeBand {
    if figures <= rules.stamina.tiny_max {
        SizeBand::Tiny
    } else if figures <= rules.stamina.small_max {
        SizeBand::Small
    } else {
        SizeBand::Standard
    }
}

/// Stamina by size and quality (the seed's table).
pub fn stamina(size: SizeBand, quality: Quality, rules: &BlackPowderRules) -> u8 {
    let s = &rules.stamina;
    match size {
        SizeBand::Tiny => s.tiny.get(quality),
        SizeBand::Small => s.small.get(quality),
        SizeBand::Standard => s.standard.get(quality),
    }
}

/// Quality from the regiment's template rating: Raw at or below `raw_cv_max`, Elite from
/// `elite_cv_min`, Trained between.
pub fn quality_of(cv: u8, rules: &BlackPowderRules) -> Quality {
    if cv <= rules.derive.raw_cv_max {
        Quality::Raw
    } else if cv >= rules.derive.elite_cv_min {
        Quality::Elite
    } else {
        Quality::Trained
    }
}

/// The men a regiment stands for: its own count, or the ruleset's number for its size class
/// (a battery: the ruleset's gun crew).
pub fn men_of(u: &Unit, rules: &BlackPowderRules) -> u32 {
    if let Some(m) = u.men {
        return m;
    }
    if u.kind.is_gun() {
        return rules.derive.gun_men;
    }
    let m = &rules.derive.men_for_size;
    match u.size {
        SizeClass::VeryLarge => m.very_large,
        SizeClass::Large => m.large,
        SizeClass::Normal => m.normal,
        SizeClass::Small => m.small,
        SizeClass::ReallySmall => m.really_small,
    }
}

/// A troop's own save bonus (cuirassiers' armour).
pub fn armour(t: Troop, rules: &BlackPowderRules) -> i8 {
    if t == Troop::Horse(HorseKind::Cuirassiers) {
        rules.units.cuirassier_save
    } else {
        0
    }
}

/// The elements a regiment fights as: left sleeve, pike block, right sleeve for foot; one
/// element for everything else.
pub fn elements_of(kind: UnitKind) -> &'static [Troop] {
    match kind {
        UnitKind::Foot(_) => &[Troop::Musket, Troop::Pike, Troop::Musket],
        UnitKind::ForlornHope => &[Troop::Skirmisher],
        UnitKind::Dragoons => &[Troop::Dragoon],
        UnitKind::Horse(HorseKind::Trotters) => &[Troop::Horse(HorseKind::Trotters)],
        UnitKind::Horse(HorseKind::PistoleerTrotters) => {
            &[Troop::Horse(HorseKind::PistoleerTrotters)]
        }
        UnitKind::Horse(HorseKind::Gallopers) => &[Troop::Horse(HorseKind::Gallopers)],
        UnitKind::Horse(HorseKind::Cuirassiers) => &[Troop::Horse(HorseKind::Cuirassiers)],
        UnitKind::Artillery(GunWeight::VeryLight) => &[Troop::Gun(GunWeight::VeryLight)],
        UnitKind::Artillery(GunWeight::Light) => &[Troop::Gun(GunWeight::Light)],
        UnitKind::Artillery(GunWeight::Medium) => &[Troop::Gun(GunWeight::Medium)],
        UnitKind::Artillery(GunWeight::Heavy) => &[Troop::Gun(GunWeight::Heavy)],
    }
}

/// The special rules a regiment has: its groups' in the ruleset (`pike` applies to the whole
/// regiment but only pike blocks use Hedgehog and First Fire).
pub fn specials_of(
    kind: UnitKind,
    side: Side,
    quality: Quality,
    rules: &BlackPowderRules,
) -> Specials {
    let mut s = Specials::default();
    let groups: &[&str] = match kind {
        UnitKind::Foot(_) => &["pike", "musket"],
        UnitKind::ForlornHope => &["skirmishers"],
        UnitKind::Dragoons => &["dragoons"],
        UnitKind::Horse(h) => match (side, h == HorseKind::Cuirassiers) {
            (Side::Royalist, false) => &["horse", "royalist_horse"],
            (Side::Parliament, false) => &["horse", "parliament_horse"],
            (Side::Royalist, true) => &["horse", "royalist_horse", "cuirassiers"],
            (Side::Parliament, true) => &["horse", "parliament_horse", "cuirassiers"],
        },
        UnitKind::Artillery(_) => &["artillery"],
    };
    for g in groups {
        s.add_all(rules.specials_of(g));
    }
    if quality == Quality::Elite {
        s.add_all(rules.specials_of("elite"));
    }
    if kind == UnitKind::Horse(HorseKind::Cuirassiers) {
        // Ruling: cuirassiers are horse with Lance off.
        s.0 &= !SpecialRule::Lance.bit();
    }
    s
}

/// A regiment as Black Powder sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Derived {
    pub men: u32,
    pub figures: u32,
    pub size: SizeBand,
    pub quality: Quality,
    pub stamina: u8,
    pub specials: Specials,
    /// Over the largest size the stamina table knows (`validate` warns).
    pub oversize: bool,
}

/// Derives a scenario regiment's Black Powder figures, size, quality, stamina and rules.
pub fn derive(u: &Unit, rules: &BlackPowderRules) -> Derived {
    let men = men_of(u, rules);
    let figures = figures(men, rules.derive.figure_scale);
    let size = size_band(figures, rules);
    let quality = quality_of(u.start_cv, rules);
    Derived {
        men,
        figures,
        size,
        quality,
        stamina: stamina(size, quality, rules),
        specials: specials_of(u.kind, u.side, quality, rules),
        oversize: figures > rules.stamina.standard_max,
    }
}

/// The shooting, melee and morale stats of an element.
pub fn stats(t: Troop, rules: &BlackPowderRules) -> super::tables::Stats {
    let u = &rules.units;
    match t {
        Troop::Pike => u.pike,
        Troop::Musket => u.musket,
        Troop::Horse(_) => u.horse,
        Troop::Dragoon => u.dragoon,
        Troop::Skirmisher => u.skirmishers,
        Troop::Gun(_) => u.artillery,
    }
}

/// An element's standard move.
pub fn standard_move(t: Troop, q: Quality, rules: &BlackPowderRules) -> f64 {
    let m = &rules.movement;
    match t {
        // Ruling: shot sleeves march with their pike block (the seed gives foot one row).
        Troop::Pike | Troop::Musket => m.pike_block.get(q),
        Troop::Skirmisher => m.skirmishers.get(q),
        Troop::Horse(HorseKind::Gallopers) => m.gallopers.get(q),
        Troop::Horse(_) => m.trotters.get(q),
        Troop::Dragoon => m.dragoons.get(q),
        Troop::Gun(GunWeight::VeryLight | GunWeight::Light) => m.light_guns,
        Troop::Gun(GunWeight::Medium) => m.medium_guns,
        Troop::Gun(GunWeight::Heavy) => m.heavy_guns,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::FootBalance;

    fn rules() -> BlackPowderRules {
        BlackPowderRules::builtin()
    }

    #[test]
    fn size_bands_follow_the_seed_with_ten_tiny() {
        let r = rules();
        assert_eq!(size_band(9, &r), SizeBand::Tiny);
        assert_eq!(size_band(10, &r), SizeBand::Tiny);
        assert_eq!(size_band(11, &r), SizeBand::Small);
        assert_eq!(size_band(20, &r), SizeBand::Small);
        assert_eq!(size_band(21, &r), SizeBand::Standard);
        assert_eq!(size_band(55, &r), SizeBand::Standard);
    }

    #[test]
    fn stamina_table_is_the_seeds() {
        let r = rules();
        let want = [
            (SizeBand::Tiny, [3, 2, 1]),
            (SizeBand::Small, [4, 3, 2]),
            (SizeBand::Standard, [5, 4, 3]),
        ];
        for (size, row) in want {
            for (q, s) in Quality::ALL.into_iter().zip(row) {
                assert_eq!(stamina(size, q, &r), s, "{size:?} {q:?}");
            }
        }
    }

    #[test]
    fn regiments_derive_figures_stamina_and_rules() {
        let r = rules();
        // 400 horse at 1:20 are 20 figures: Small; CV 5 is Trained: stamina 3; Royalist: Rash.
        let mut horse = Unit::new(
            0,
            Side::Royalist,
            0,
            UnitKind::Horse(HorseKind::Gallopers),
            5,
        );
        horse.men = Some(400);
        let d = derive(&horse, &r);
        assert_eq!(
            (d.figures, d.size, d.quality, d.stamina),
            (20, SizeBand::Small, Quality::Trained, 3)
        );
        assert!(d.specials.has(SpecialRule::Rash));
        horse.side = Side::Parliament;
        assert!(!derive(&horse, &r).specials.has(SpecialRule::Rash));
        // 1000 foot are 50 figures: Standard, oversize; CV 3 is Raw: stamina 3.
        let mut foot = Unit::new(
            1,
            Side::Parliament,
            0,
            UnitKind::Foot(FootBalance::Normal),
            3,
        );
        foot.men = Some(1000);
        let d = derive(&foot, &r);
        assert_eq!(
            (d.size, d.quality, d.stamina, d.oversize),
            (SizeBand::Standard, Quality::Raw, 3, true)
        );
        assert!(d.specials.has(SpecialRule::Hedgehog) && d.specials.has(SpecialRule::FirstFire));
        assert_eq!(
            elements_of(foot.kind),
            &[Troop::Musket, Troop::Pike, Troop::Musket]
        );
        // An elite regiment has the Elite rule.
        foot.start_cv = 6;
        assert!(derive(&foot, &r).specials.has(SpecialRule::Elite));
        let mut drag = Unit::new(2, Side::Royalist, 0, UnitKind::Dragoons, 4);
        drag.men = Some(200);
        let d = derive(&drag, &r);
        assert_eq!((d.size, d.stamina), (SizeBand::Tiny, 2));
        assert!(d.specials.has(SpecialRule::Marauders) && !d.specials.has(SpecialRule::Rash));
    }

    #[test]
    fn moves_follow_the_movement_table() {
        let r = rules();
        assert_eq!(standard_move(Troop::Pike, Quality::Elite, &r), 8.0);
        // Ruling: the shot sleeves march at their pike block's rate, whatever it is set to.
        let mut slow = r.clone();
        slow.movement.pike_block.trained = 5.0;
        assert_eq!(standard_move(Troop::Musket, Quality::Trained, &slow), 5.0);
        assert_eq!(standard_move(Troop::Skirmisher, Quality::Trained, &r), 9.0);
        assert_eq!(
            standard_move(Troop::Horse(HorseKind::Gallopers), Quality::Raw, &r),
            12.0
        );
        assert_eq!(
            standard_move(Troop::Horse(HorseKind::Trotters), Quality::Elite, &r),
            13.0
        );
        assert_eq!(
            standard_move(Troop::Gun(GunWeight::Heavy), Quality::Elite, &r),
            0.0
        );
        assert_eq!(stats(Troop::Pike, &r).melee, 6);
        assert_eq!(stats(Troop::Gun(GunWeight::Light), &r).morale, 3);
    }
}
