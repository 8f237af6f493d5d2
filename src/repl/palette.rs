//! The terminal board's colours: xterm's 256-colour palette, chosen so that
//! every ink is readable on every ground it is drawn on (WCAG AA, a contrast of
//! at least 4.5:1; the test below computes it from the palette). Without
//! colour (`NO_COLOR`, or output that is not a terminal) the board uses marks
//! instead (render.rs).

use crate::kernel::{Colour, Player};

/// What a square is painted with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    Square(Colour),
    /// A square of the last checker move (its start or its end).
    LastMove(Colour),
    Water,
    Fire,
    Monolith,
}

/// What is written on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    /// A checker of this player, with its tokens and markers.
    Piece(Player),
    /// Everything else: the empty square's dot, markers, terrain, the marks.
    Mark,
}

impl Ground {
    #[cfg(test)]
    pub const ALL: [Ground; 7] = [
        Ground::Square(Colour::Dark),
        Ground::Square(Colour::Light),
        Ground::LastMove(Colour::Dark),
        Ground::LastMove(Colour::Light),
        Ground::Water,
        Ground::Fire,
        Ground::Monolith,
    ];

    /// The palette index of the background.
    pub fn code(self) -> u8 {
        match self {
            Ground::Square(Colour::Dark) => 236,
            Ground::Square(Colour::Light) => 180,
            Ground::LastMove(Colour::Dark) => 17,
            Ground::LastMove(Colour::Light) => 187,
            Ground::Water => 25,
            Ground::Fire => 160,
            Ground::Monolith => 240,
        }
    }

    /// Whether light inks are drawn on it (else dark ones).
    fn is_dark(self) -> bool {
        !matches!(self, Ground::Square(Colour::Light) | Ground::LastMove(Colour::Light))
    }

    /// The palette index of `ink` on this ground: each player's hue, light on
    /// dark grounds and deep on light ones (orange or dark red for Dark, cyan
    /// or navy for Light).
    pub fn ink(self, ink: Ink) -> u8 {
        match (ink, self.is_dark()) {
            (Ink::Piece(Player::Dark), true) => 215,
            (Ink::Piece(Player::Light), true) => 123,
            (Ink::Mark, true) => 226,
            (Ink::Piece(Player::Dark), false) => 88,
            (Ink::Piece(Player::Light), false) => 18,
            (Ink::Mark, false) => 16,
        }
    }

    /// The ANSI style: bold `ink` on this ground.
    pub fn style(self, ink: Ink) -> String {
        format!("1;48;5;{};38;5;{}", self.code(), self.ink(ink))
    }
}

/// A player's colour for text on the terminal's own background (names, walls).
pub fn player_text(p: Player) -> &'static str {
    match p {
        Player::Dark => "1;38;5;208",
        Player::Light => "1;38;5;45",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xterm's colour `index` (16 to 255) as red, green, blue.
    fn rgb(index: u8) -> [u8; 3] {
        match index {
            232..=255 => [8 + 10 * (index - 232); 3],
            16..=231 => {
                let level = |n: u8| if n == 0 { 0 } else { 55 + 40 * n };
                let i = index - 16;
                [level(i / 36), level(i / 6 % 6), level(i % 6)]
            }
            _ => panic!("the board uses no system colour (their look depends on the terminal)"),
        }
    }

    /// WCAG 2's relative luminance.
    fn luminance(index: u8) -> f64 {
        let channel = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.03928 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) }
        };
        let [r, g, b] = rgb(index);
        0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }

    fn contrast(a: u8, b: u8) -> f64 {
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    #[test]
    fn the_palette_is_what_xterm_shows() {
        assert_eq!(rgb(16), [0, 0, 0]);
        assert_eq!(rgb(231), [255, 255, 255]);
        assert_eq!(rgb(94), [135, 95, 0]);
        assert_eq!(rgb(244), [128, 128, 128]);
        assert!((contrast(16, 231) - 21.0).abs() < 1e-9);
    }

    #[test]
    fn every_ink_reads_on_every_ground_at_wcag_aa() {
        for ground in Ground::ALL {
            // Checkers never stand on water, fire or the monolith (R4.5).
            let inks = match ground {
                Ground::Square(_) | Ground::LastMove(_) => {
                    &[Ink::Piece(Player::Dark), Ink::Piece(Player::Light), Ink::Mark][..]
                }
                _ => &[Ink::Mark][..],
            };
            for &ink in inks {
                let ratio = contrast(ground.ink(ink), ground.code());
                assert!(ratio >= 4.5, "{ink:?} on {ground:?}: {ratio:.2}:1");
            }
        }
    }

    #[test]
    fn a_last_move_square_stands_out_from_its_plain_square() {
        for colour in [Colour::Dark, Colour::Light] {
            let ratio = contrast(Ground::LastMove(colour).code(), Ground::Square(colour).code());
            assert!(ratio >= 1.3, "{colour:?}: {ratio:.2}:1");
        }
    }
}
