//! Each side's regiments in the order of their centres' x, kept as they move: a search of a
//! box looks only at the regiments whose centres lie in its width, where a walk of the side
//! would test every one.
//!
//! For sides too small for the grid (`GRID_FROM`), whose cells cost more than they spare.
//! Regiments are named by an id of the ruleset's choosing (their index, or their place in
//! their side's list). A move shifts the mover along the order by the few places its x passed
//! (armies move a few inches a turn), so keeping it allocates nothing and costs next to
//! nothing. Ties of x come in no set order: every search using it answers the same whatever
//! the order of those it visits.

use crate::army::Side;

#[derive(Debug, Clone, Default)]
pub struct Sweep {
    /// Each side's (x, id), by x.
    order: [Vec<(f64, u16)>; 2],
    /// Each side's ids' places in `order`.
    at: [Vec<u16>; 2],
}

impl Sweep {
    /// Orders `side`'s regiments, given as (x, id), anew.
    pub fn fill(&mut self, side: Side, regiments: impl Iterator<Item = (f64, usize)>) {
        let (order, at) = (&mut self.order[side.index()], &mut self.at[side.index()]);
        order.clear();
        order.extend(regiments.map(|(x, id)| (x, id as u16)));
        order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let ids = order.iter().map(|&(_, id)| usize::from(id) + 1).max();
        at.resize(ids.unwrap_or(0), 0);
        for (i, &(_, id)) in order.iter().enumerate() {
            at[usize::from(id)] = i as u16;
        }
    }

    /// Regiment `id` of `side` now stands at `x`: it shifts along the order past those its x
    /// has passed.
    pub fn moved(&mut self, side: Side, id: usize, x: f64) {
        let (order, at) = (&mut self.order[side.index()], &mut self.at[side.index()]);
        let mut i = usize::from(at[id]);
        order[i].0 = x;
        while i > 0 && order[i - 1].0 > x {
            order.swap(i - 1, i);
            at[usize::from(order[i].1)] = i as u16;
            i -= 1;
        }
        while i + 1 < order.len() && order[i + 1].0 < x {
            order.swap(i, i + 1);
            at[usize::from(order[i].1)] = i as u16;
            i += 1;
        }
        at[id] = i as u16;
    }

    /// The ids of `side` whose x lies in `lo..=hi`, by x.
    pub fn within(&self, side: Side, lo: f64, hi: f64) -> impl Iterator<Item = usize> + '_ {
        let order = &self.order[side.index()];
        let first = order.partition_point(|&(x, _)| x < lo);
        order[first..]
            .iter()
            .take_while(move |&&(x, _)| x <= hi)
            .map(|&(_, s)| usize::from(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kept through random moves, the order is the sort of the x's, and a band holds exactly
    /// the slots whose x lies in it.
    #[test]
    fn the_order_follows_the_moves() {
        let mut rnd = crate::dice::test_uniforms(0x5eeb);
        let mut xs: Vec<f64> = (0..37).map(|_| rnd() * 70.0).collect();
        let mut s = Sweep::default();
        s.fill(Side::Royalist, xs.iter().copied().zip(0..));
        for step in 0..5_000 {
            let k = (rnd() * xs.len() as f64) as usize;
            // Small moves most often, now and then a jump, and now and then onto another's x.
            xs[k] = match step % 7 {
                0 => rnd() * 70.0,
                1 => xs[(k + 1) % xs.len()],
                _ => (xs[k] + rnd() * 6.0 - 3.0).clamp(0.0, 70.0),
            };
            s.moved(Side::Royalist, k, xs[k]);
            let order = &s.order[Side::Royalist.index()];
            assert!(order.windows(2).all(|w| w[0].0 <= w[1].0), "step {step}");
            for (i, &(x, slot)) in order.iter().enumerate() {
                assert_eq!(x.to_bits(), xs[usize::from(slot)].to_bits());
                assert_eq!(
                    usize::from(s.at[Side::Royalist.index()][usize::from(slot)]),
                    i
                );
            }
            let (lo, hi) = (rnd() * 70.0, rnd() * 70.0);
            let mut got: Vec<usize> = s.within(Side::Royalist, lo, hi).collect();
            got.sort_unstable();
            let want: Vec<usize> = (0..xs.len())
                .filter(|&i| xs[i] >= lo && xs[i] <= hi)
                .collect();
            assert_eq!(got, want, "step {step}: {lo}..{hi}");
        }
    }
}
