//! Triggers: lasting effects whose scripts react to the event stream,
//! and the rest of the turn around them.
//!
//! After each point of the turn (a move played, a card resolved, a turn ended,
//! a turn begun, a step skipped) the events recorded since the last point are
//! dispatched. Order, documented for modders in cards/README.md:
//! - events in the order they happened; for each event, the effects in the
//!   order they came into force (oldest first);
//! - an effect reacts only to events after the decision that made it: a card's
//!   own events (and those of the handler that made it) are not given to it;
//! - an effect never hears the events its own handlers caused (their cause
//!   names it), so a handler that moves a checker does not react to its move;
//! - a handler's own changes are new events, dispatched after every reaction
//!   already waiting (breadth first), one generation deeper. A chain deeper than
//!   [`MAX_DEPTH`], or more than [`MAX_REACTIONS`] handler runs for one decision,
//!   stops with an error and the decision is refused, the state unchanged;
//! - after any reaction has run, the game checks for a win (R10.1) before the
//!   turn goes on.
//!
//! A handler may ask questions like a card: the game then waits in a
//! [`Step::Resolving`] whose `reaction` keeps the reactions still to run and the
//! point of the turn to go on from, all plain data (saved and hashed).

use serde::{Deserialize, Serialize};

use super::GameState;
use super::state::{Resolving, Step};
use super::{CardHost, Cause, GameError, GameEvent, Lasting, Logged, Resolution, SkipReason, SkippedStep, WhenStuck};
use super::{EndReason, Outcome, Scored, StuckOf};
use crate::game::Answer;
use crate::kernel::Player;

/// Generations of reactions to reactions before the chain is stopped.
pub const MAX_DEPTH: u8 = 8;
/// Handler runs allowed for one decision.
pub const MAX_REACTIONS: u32 = 200;

/// One handler call (or effect ending) waiting to happen.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Reaction {
    /// The effect's id.
    pub effect: u32,
    pub event: Logged,
    /// 0 for events of the turn itself, 1 for those of a handler, and so on.
    pub depth: u8,
    /// Whether the effect's script has a handler for the event.
    pub handler: bool,
    /// Whether the effect ends with this event (`Lasting::Until`).
    pub ends: bool,
}

/// A handler's question is pending: what remains to be done.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Reacting {
    /// The reactions still to run; the first is the one asking.
    pub queue: Vec<Reaction>,
    /// Where the turn goes on when they are done.
    pub then: Then,
    /// The step the game was at before the question.
    pub step: Box<Step>,
    /// Handler runs so far for this decision.
    pub runs: u32,
}

/// A point of the turn (R3) to go on from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Then {
    /// A move is being played hop by hop (hops.rs): its next hop, or its end.
    Hop,
    /// A move was played: check for a win, then draw (R3.2).
    AfterMove,
    /// A card resolved: check for a win, then end the turn.
    AfterCard,
    /// The turn ends.
    EndTurn,
    /// The next player's turn begins.
    NextTurn,
    /// Run the steps that need no decision, until one does.
    Settle,
}

/// What dispatching did.
enum Reacted {
    /// No handler ran.
    Nothing,
    /// Handlers ran and finished.
    Ran,
    /// A handler asked a question, which is now pending.
    Asked,
}

impl GameState {
    /// Goes on with the turn from `then` until a decision is pending or the game
    /// ends, letting lasting effects react at each point. Effects with an id
    /// above `newest` do not react to the events already recorded (they were
    /// made by the decision being applied).
    pub(super) fn carry_on(&mut self, host: &dyn CardHost, mut then: Then, mut newest: u32) -> Result<(), GameError> {
        // The planets dealt stay the same all game: ask the host once.
        let planets_listen = self.planets_listen(host);
        loop {
            if planets_listen || !self.position.effects.is_empty() {
                match self.react(host, then, newest)? {
                    Reacted::Asked => return Ok(()),
                    Reacted::Ran if self.check_end(host) => return Ok(()),
                    Reacted::Ran | Reacted::Nothing => {}
                }
                newest = u32::MAX;
            }
            then = match then {
                Then::Hop => {
                    if self.next_hop() {
                        Then::Hop
                    } else {
                        Then::AfterMove
                    }
                }
                Then::AfterMove => {
                    if self.check_end(host) {
                        return Ok(());
                    }
                    self.leave_move_step()
                }
                Then::AfterCard => {
                    if self.check_end(host) {
                        return Ok(());
                    }
                    Then::EndTurn
                }
                Then::EndTurn => {
                    self.journal
                        .push(|| GameEvent::TurnEnded { turn: self.position.turn + 1, player: self.position.to_move });
                    Then::NextTurn
                }
                Then::NextTurn => {
                    if !self.next_turn(host) {
                        return Ok(());
                    }
                    Then::Settle
                }
                Then::Settle => match self.skip_step(host) {
                    Some(next) => next,
                    None => return Ok(()),
                },
            };
        }
    }

    /// R3.2: after the move step (made or skipped) comes the draw and the card
    /// step, or, without cards (R11), the end of the turn.
    fn leave_move_step(&mut self) -> Then {
        if self.position.rules.cards {
            self.draw_card();
            self.position.step = Step::Card;
            Then::Settle
        } else {
            Then::EndTurn
        }
    }

    /// Passes a step that needs no decision (a move step with no legal move, a
    /// card step with no playable card); `None` when a decision is pending or
    /// the game is over.
    fn skip_step(&mut self, host: &dyn CardHost) -> Option<Then> {
        match self.position.step {
            Step::Move
                if self.position.rules.ends.stuck_of == StuckOf::Either
                    && self.position.rules.when_stuck != WhenStuck::Skip
                    && self.has_move(host) =>
            {
                // The other player's lack of a move ends the game as the turn
                // begins too (`stuck: {of: either}`; S13c).
                let other = !self.position.to_move;
                if !self.with_to_move(other).has_move(host) {
                    self.stuck(host, other);
                }
                None
            }
            Step::Move if !self.has_move(host) => {
                if self.position.rules.when_stuck != WhenStuck::Skip {
                    self.stuck(host, self.position.to_move);
                    return None;
                }
                // R10.3: neither player can move, by the kernel's moves or
                // those scripts offer (a constraint only narrows, R4.8).
                if !self.with_to_move(!self.position.to_move).has_move(host) {
                    self.finish(Outcome { winner: None, reason: EndReason::NoMoves });
                    return None;
                }
                // R3.1: the move step is skipped (and a constraint with it, R4.8).
                if let Some(c) = self.position.constraint {
                    self.journal.push(|| GameEvent::ConstraintLapsed { card: c.card });
                }
                let reason = SkipReason::NoLegalMove;
                self.journal.push(|| GameEvent::StepSkipped { step: SkippedStep::Move, reason });
                Some(self.leave_move_step())
            }
            Step::Card if self.playable_cards(host).is_empty() => {
                let reason = if self.card_step_withheld() {
                    SkipReason::FirstTurn
                } else if self.hidden.piles.face_up.is_empty() {
                    SkipReason::NoFaceUpCard
                } else {
                    SkipReason::NoPlayableCard
                };
                self.journal.push(|| GameEvent::StepSkipped { step: SkippedStep::Card, reason });
                Some(Then::EndTurn)
            }
            _ => None,
        }
    }

    /// `player` has no move and the deck ends the game for it: they lose
    /// (R11), or the game is scored ([`Scored::Stuck`]).
    fn stuck(&mut self, host: &dyn CardHost, player: Player) {
        match self.position.rules.when_stuck {
            WhenStuck::Score => self.score(host, Scored::Stuck(player)),
            WhenStuck::Lose | WhenStuck::Skip => {
                self.finish(Outcome { winner: Some(!player), reason: EndReason::Stuck });
            }
        }
    }

    /// Dispatches the events recorded since the last point to the effects'
    /// handlers and runs them.
    fn react(&mut self, host: &dyn CardHost, then: Then, newest: u32) -> Result<Reacted, GameError> {
        let events = self.journal.undispatched();
        if events.is_empty() {
            return Ok(Reacted::Nothing);
        }
        // A planet whose handler changed its data may hold now: checked like
        // an effect's handler's doing (R10.1).
        let planets_changed = self.tell_planets(host, &events);
        let heard = if planets_changed { Reacted::Ran } else { Reacted::Nothing };
        if self.position.effects.is_empty() {
            return Ok(heard);
        }
        let queue = self.reactions_to(host, &events, 0, newest);
        match self.run_reactions(host, queue, then, Vec::new(), 0)? {
            Reacted::Nothing => Ok(heard),
            reacted => Ok(reacted),
        }
    }

    /// Whether anything hears the events: a lasting effect in force, or a
    /// planet dealt whose script has handlers.
    pub(super) fn listening(&self, host: &dyn CardHost) -> bool {
        !self.position.effects.is_empty() || self.planets_listen(host)
    }

    pub(super) fn planets_listen(&self, host: &dyn CardHost) -> bool {
        self.hidden.planets.iter().flatten().any(|&p| host.planet_listens(p, None))
    }

    /// Gives `events` to the planets' handlers: Dark's planet hears them all in
    /// order, then Light's. A planet's handler reads the game as it stands and
    /// changes only its planet's data; one that fails changes nothing (the host
    /// notes the failure, as for a planet's check, and play goes on). Says
    /// whether any planet's data changed.
    fn tell_planets(&mut self, host: &dyn CardHost, events: &[Logged]) -> bool {
        let mut changed = false;
        for player in Player::BOTH {
            let Some(planet) = self.planet(player) else { continue };
            if !host.planet_listens(planet, None) {
                continue;
            }
            for event in events.iter().filter(|e| host.planet_listens(planet, Some(e.kind()))) {
                if let Ok(data) = host.planet_hears(self, planet, player, Some(event))
                    && data != *self.hidden.planet_data.of(player)
                {
                    self.hidden.planet_data.set(player, data);
                    changed = true;
                }
            }
        }
        changed
    }

    /// The reactions `events` call for, in the documented order.
    fn reactions_to(&self, host: &dyn CardHost, events: &[Logged], depth: u8, newest: u32) -> Vec<Reaction> {
        let mut queue = Vec::new();
        for event in events {
            let kind = event.kind();
            for effect in self.position.effects.iter().filter(|e| e.id <= newest && !e.caused(&event.cause)) {
                let handler = host.reacts(effect.card, kind);
                let ends = effect.lasts == Lasting::Until(kind);
                if handler || ends {
                    queue.push(Reaction { effect: effect.id, event: event.clone(), depth, handler, ends });
                }
            }
        }
        queue
    }

    /// Runs the queued reactions in order (with `answers` for the first), then
    /// says whether any handler ran or one is asking.
    fn run_reactions(
        &mut self,
        host: &dyn CardHost,
        queue: Vec<Reaction>,
        then: Then,
        mut answers: Vec<Answer>,
        mut runs: u32,
    ) -> Result<Reacted, GameError> {
        let mut ran = false;
        let mut queue = std::collections::VecDeque::from(queue);
        while let Some(reaction) = queue.front() {
            let Some(effect) = self.effect(reaction.effect).cloned() else {
                queue.pop_front();
                continue;
            };
            if reaction.handler {
                let newest = self.position.effect_serial;
                let scratch = self.scratch(effect.cause());
                match host.react(&scratch, &effect, &reaction.event, &answers) {
                    Resolution::Done(after) => {
                        runs += 1;
                        if runs > MAX_REACTIONS {
                            return Err(GameError::EffectFailed {
                                effect: effect.id,
                                message: format!(
                                    "lasting effects reacted more than {MAX_REACTIONS} times to one decision; \
                                     the decision is refused"
                                ),
                            });
                        }
                        // Told only when the handler changed something.
                        if !after.journal.events().is_empty() {
                            let to = reaction.event.kind();
                            self.journal.push_caused(effect.cause(), || GameEvent::EffectReacted {
                                card: effect.card,
                                owner: effect.owner,
                                to,
                            });
                        }
                        self.commit(*after);
                        // The handler ended the game (`ctx:end_game`): nothing more reacts.
                        if let Some(outcome) = self.outcome() {
                            self.finish_caused(outcome, effect.cause());
                            return Ok(Reacted::Ran);
                        }
                        ran = true;
                        answers.clear();
                        let events = self.journal.undispatched();
                        self.tell_planets(host, &events);
                        let depth = reaction.depth + 1;
                        let more = self.reactions_to(host, &events, depth, newest);
                        if !more.is_empty() && depth >= MAX_DEPTH {
                            return Err(GameError::EffectFailed {
                                effect: effect.id,
                                message: format!(
                                    "effect of card '{}' set off a chain of reactions {MAX_DEPTH} deep (reacting to '{}'); \
                                     the decision is refused",
                                    host.card_label(effect.card),
                                    reaction.event.kind()
                                ),
                            });
                        }
                        queue.extend(more);
                    }
                    Resolution::Ask(question) if question.options.is_empty() => {
                        return Err(GameError::EffectFailed {
                            effect: effect.id,
                            message: format!(
                                "effect of card '{}' asked '{}' with no possible answer",
                                host.card_label(effect.card),
                                question.prompt
                            ),
                        });
                    }
                    Resolution::Ask(question) => {
                        let step = std::mem::replace(&mut self.position.step, Step::Card);
                        let reacting = Reacting { queue: queue.into(), then, step: Box::new(step), runs };
                        self.position.step = Step::Resolving(Resolving {
                            card: effect.card,
                            answers,
                            question,
                            reaction: Some(Box::new(reacting)),
                        });
                        return Ok(Reacted::Asked);
                    }
                    Resolution::Failed(message) => return Err(GameError::EffectFailed { effect: effect.id, message }),
                }
            }
            let reaction = queue.pop_front().expect("the front was there");
            if reaction.ends {
                self.end_effect(reaction.effect);
            }
        }
        Ok(if ran { Reacted::Ran } else { Reacted::Nothing })
    }

    /// An answer to a handler's question: the handler runs again with it, then
    /// the reactions and the turn go on.
    pub(super) fn answer_reaction(
        &mut self,
        host: &dyn CardHost,
        reacting: Reacting,
        answers: Vec<Answer>,
    ) -> Result<(), GameError> {
        self.position.step = *reacting.step;
        match self.run_reactions(host, reacting.queue, reacting.then, answers, reacting.runs)? {
            Reacted::Asked => Ok(()),
            Reacted::Ran if self.check_end(host) => Ok(()),
            _ => self.carry_on(host, reacting.then, u32::MAX),
        }
    }

    /// A copy to run a script on, with an empty log whose events have `cause`.
    pub(super) fn scratch(&mut self, cause: Cause) -> GameState {
        let journal = std::mem::take(&mut self.journal);
        let mut copy = self.clone();
        copy.journal = journal.empty_caused(cause);
        self.journal = journal;
        copy
    }

    /// Takes a script's finished scratch copy as the state, its events after
    /// those recorded before it (invariant 3: a script commits whole or not at all).
    pub(super) fn commit(&mut self, mut after: GameState) {
        let mut journal = std::mem::take(&mut self.journal);
        journal.append(std::mem::take(&mut after.journal));
        *self = after;
        self.journal = journal;
        self.position.hooked = super::HookedMoves::default();
        if !self.position.effects.is_empty() {
            self.journal.watch(true);
        }
    }
}
