//! Each regiment's order for the move, made before anyone moves when both sides declare at
//! once (ruling), and the charges declared on each enemy: a regiment weighing a charge asks
//! the friends already charging the same enemy (`battle.charges_shared_out`), found from that
//! enemy's list, not by reading every order on the table (which made a large battle's
//! declarations grow as the square of its regiments).

use super::movement::{Order, Thrown};

/// No charge (the end of a target's list).
const NONE: u32 = u32::MAX;

#[derive(Debug, Clone, Default)]
pub(super) struct Orders {
    /// Each regiment's order; None once carried out.
    each: Vec<Order>,
    /// The last charge declared this move on each regiment (its place in `charges`).
    last_on: Vec<u32>,
    /// The charges declared this move, each with the one declared before it on the same
    /// target. An order changed after its charge was listed stays listed: `charging` reads the
    /// order itself, so the lists need only hold every charge standing.
    charges: Vec<(u16, u32)>,
}

impl Orders {
    /// No orders for a battle of `n` regiments, with room for every charge a move may list
    /// (each regiment's order made, and made again once).
    pub(super) fn reset(&mut self, n: usize) {
        self.each.clear();
        self.each.resize(n, Order::None);
        self.last_on.clear();
        self.last_on.resize(n, NONE);
        self.charges.clear();
        self.charges.reserve(2 * n);
    }

    /// No orders, the start of a move's declarations.
    pub(super) fn clear(&mut self) {
        self.each.fill(Order::None);
        self.last_on.fill(NONE);
        self.charges.clear();
    }

    /// Regiment `r`'s order is `order`.
    pub(super) fn set(&mut self, r: usize, order: Order) {
        self.each[r] = order;
        if let Some(t) = order.charges() {
            self.charges.push((r as u16, self.last_on[t]));
            self.last_on[t] = (self.charges.len() - 1) as u32;
        }
    }

    /// Regiment `r`'s order, taken to be carried out (None left).
    pub(super) fn take(&mut self, r: usize) -> Order {
        std::mem::take(&mut self.each[r])
    }

    /// The formation rules' throw made at the declaration of `r`'s order, kept with it.
    pub(super) fn keep_thrown(&mut self, r: usize, thrown: Thrown) {
        if let Order::Plan { thrown: k, .. } = &mut self.each[r] {
            *k = thrown;
        }
    }

    /// The regiment `r`'s order charges, if it is a charge.
    pub(super) fn charge_target(&self, r: usize) -> Option<usize> {
        self.each[r].charges()
    }

    /// The regiments whose order is a charge on `t`, newest first.
    pub(super) fn charging(&self, t: usize) -> impl Iterator<Item = usize> + '_ {
        let mut at = self.last_on[t];
        std::iter::from_fn(move || {
            let &(f, before) = self.charges.get(at as usize)?;
            at = before;
            Some(usize::from(f))
        })
        .filter(move |&f| self.charge_target(f) == Some(t))
    }
}

impl std::ops::Index<usize> for Orders {
    type Output = Order;
    fn index(&self, r: usize) -> &Order {
        &self.each[r]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::black_powder::battle::doctrine::Plan;

    fn charge(t: u16) -> Order {
        Order::Plan {
            plan: Plan::Charge,
            t,
            gap: 1.0,
            close_up: false,
            thrown: Thrown::AtContact,
        }
    }

    fn charging(o: &Orders, t: usize) -> Vec<usize> {
        let mut v: Vec<usize> = o.charging(t).collect();
        v.sort();
        v
    }

    #[test]
    fn a_target_lists_exactly_the_regiments_whose_order_charges_it() {
        let mut o = Orders::default();
        o.reset(6);
        o.set(0, charge(5));
        o.set(1, charge(4));
        o.set(2, charge(5));
        o.set(3, Order::Halt);
        assert_eq!(charging(&o, 5), [0, 2]);
        assert_eq!(charging(&o, 4), [1]);
        assert!(charging(&o, 3).is_empty());
        // An order made again elsewhere, cancelled or taken leaves its old target's list.
        o.set(2, charge(4));
        assert_eq!(charging(&o, 5), [0]);
        assert_eq!(charging(&o, 4), [1, 2]);
        o.set(1, Order::None);
        o.take(0);
        assert!(charging(&o, 5).is_empty());
        assert_eq!(charging(&o, 4), [2]);
        // Made again on the same target, it is listed twice: asking twice changes no answer.
        o.set(2, charge(4));
        assert_eq!(o.charging(4).filter(|&f| f == 2).count(), 2);
        o.clear();
        assert!(charging(&o, 4).is_empty());
        assert_eq!(o[2], Order::None);
    }

    #[test]
    fn a_throw_kept_with_a_charge_keeps_it_listed() {
        let mut o = Orders::default();
        o.reset(2);
        o.set(0, charge(1));
        o.keep_thrown(0, Thrown::Charger(true));
        assert_eq!(charging(&o, 1), [0]);
    }
}
