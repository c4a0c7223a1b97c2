//! The game settings njudge's Masters know (`master`, `index`) beyond the
//! rules and the clock: whether the game is listed, its comment, the start
//! by hand, moderation, how powers are assigned, the press colour rule, fake
//! press, the centres that win, quiet notices, concessions, the longest
//! absence. Kept with the game's settings, shown by `LIST`.

use serde::{Deserialize, Serialize};

/// How powers are assigned at the start (njudge's `PRFLIST`, `PRFRAND`, `PRFBOTH`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AssignBy {
    /// By the players' preference lists, lots breaking ties (the default).
    #[default]
    List,
    /// By lot alone: preference lists are not read.
    Random,
    /// By lot for players who asked for any power, by list for the others.
    Both,
}

/// The Master's settings in njudge's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HouseSettings {
    /// Shown in `LIST` of all games (`SET NOLIST`: only to those who name it).
    #[serde(default = "yes")]
    pub listed: bool,
    /// The one-line comment `LIST` shows (`SET COMMENT`).
    #[serde(default)]
    pub comment: String,
    /// The game starts only when its Master says so (`SET MANUAL START`).
    #[serde(default)]
    pub manual_start: bool,
    /// Only the Master may change the settings (`SET UNMODERATED`: any player may).
    #[serde(default = "yes")]
    pub moderated: bool,
    #[serde(default)]
    pub assign: AssignBy,
    /// Every player's press goes out anonymous (`SET GREY`).
    #[serde(default)]
    pub grey_only: bool,
    /// Players may fake who their press went to (`SET PARTIAL MAY BE FAKED`).
    #[serde(default)]
    pub fake_press: bool,
    /// Supply centres that win the game (`SET CENTERS`; none: more than half).
    #[serde(default)]
    pub centers: Option<u32>,
    /// Notices of sign-ons, observers, resignations and take-overs go to the
    /// masters only (`SET QUIET`).
    #[serde(default)]
    pub quiet: bool,
    /// Players may concede (`SET NO CONCESSIONS`: they may not).
    #[serde(default = "yes")]
    pub concessions: bool,
    /// The longest absence a player may set, in days (`SET MAX ABSENCE`;
    /// none: 31, the longest there is).
    #[serde(default)]
    pub max_absence: Option<u32>,
}

fn yes() -> bool {
    true
}

impl Default for HouseSettings {
    fn default() -> HouseSettings {
        HouseSettings {
            listed: true,
            comment: String::new(),
            manual_start: false,
            moderated: true,
            assign: AssignBy::List,
            grey_only: false,
            fake_press: false,
            centers: None,
            quiet: false,
            concessions: true,
            max_absence: None,
        }
    }
}

impl HouseSettings {
    /// The settings as `LIST` shows them, in njudge's words.
    pub fn describe(&self) -> String {
        let mut flags = vec![
            if self.listed { "List" } else { "NoList" },
            if self.moderated {
                "Moderated"
            } else {
                "Unmoderated"
            },
            if self.manual_start {
                "ManualStart"
            } else {
                "AutoStart"
            },
            match self.assign {
                AssignBy::List => "PrfList",
                AssignBy::Random => "PrfRand",
                AssignBy::Both => "PrfBoth",
            },
        ];
        if self.grey_only {
            flags.push("GreyOnly");
        }
        flags.push(if self.fake_press {
            "Partial may be Faked"
        } else {
            "No Fake"
        });
        if self.quiet {
            flags.push("Quiet");
        }
        if !self.concessions {
            flags.push("NoConcessions");
        }
        let mut out = format!("Settings: {}", flags.join(", "));
        if let Some(n) = self.centers {
            out.push_str(&format!(", {n} centres win"));
        }
        if let Some(n) = self.max_absence {
            out.push_str(&format!(", absences up to {n} days"));
        }
        out.push('\n');
        if !self.comment.is_empty() {
            out.push_str(&format!("Comment: {}\n", self.comment));
        }
        out
    }
}
