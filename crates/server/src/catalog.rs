//! The start positions, the two tables, the fairness table and the physical drawing methods:
//! `/api/positions`, `/api/tables`, `/api/fairness`, `/api/draw`. The JSON shapes are those of
//! `chess960 list --json`, `chess960 tables --json`, `chess960 fairness --json` and
//! `chess960 draw --json`, which build their JSON with the types of this module.

use crate::error::{ApiError, ApiResult};
use chess960_core::{BackRank, StartId};
use chess960_draw::describe::properties;
use chess960_draw::fairness::{analyse, Analysis, Class};
use chess960_draw::rng::SplitMix64;
use chess960_draw::stats::ChiSquare;
use chess960_draw::tables::{bishop_table, king_table, split};
use chess960_draw::{draw_seeded, replay, Method, Step};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// One start position.
#[derive(Serialize)]
pub struct PositionJson {
    id: u16,
    back_rank: String,
    fen: String,
}

/// The start position `id`.
pub fn position(id: StartId) -> PositionJson {
    PositionJson {
        id: id.get(),
        back_rank: id.back_rank().to_string(),
        fen: id.position().fen(),
    }
}

/// All 960, by id.
pub fn positions() -> Vec<PositionJson> {
    StartId::all().map(position).collect()
}

/// Reads a start position number from a path: 0..959, and 960 as 0 (the 1..960 numbering).
pub fn parse_id(text: &str) -> ApiResult<StartId> {
    let n: u32 = text.trim().parse().map_err(|_| {
        ApiError::bad_request(format!(
            "id: '{text}' is not a start position number (0..959)"
        ))
    })?;
    let n = if n == 960 { 0 } else { n };
    StartId::new(n)
        .map_err(|_| ApiError::not_found(format!("no start position {n}: the numbers are 0..959")))
}

#[derive(Serialize)]
struct KingRowJson {
    row: u16,
    pieces: String,
}

#[derive(Serialize)]
struct BishopRowJson {
    row: u16,
    squares: [String; 2],
}

#[derive(Serialize)]
struct ExampleJson {
    id: u16,
    king_row: u16,
    bishop_row: u16,
    back_rank: String,
}

/// The two-table form of the numbering, as `chess960 tables --json` prints it (with its worked
/// example for 518).
#[derive(Serialize)]
pub struct TablesJson {
    king_table: Vec<KingRowJson>,
    bishop_table: Vec<BishopRowJson>,
    example: ExampleJson,
}

/// The tables with the worked example for `id`.
pub fn tables(id: StartId) -> TablesJson {
    let (k, b) = split(id);
    TablesJson {
        king_table: king_table()
            .iter()
            .map(|r| KingRowJson {
                row: r.k,
                pieces: r.letters(),
            })
            .collect(),
        bishop_table: bishop_table()
            .iter()
            .map(|r| BishopRowJson {
                row: r.b,
                squares: r.files.map(|f| format!("{f}1")),
            })
            .collect(),
        example: ExampleJson {
            id: id.get(),
            king_row: k,
            bishop_row: b,
            back_rank: id.back_rank().to_string(),
        },
    }
}

/// A class of positions with the same probability.
#[derive(Serialize)]
struct ClassJson {
    times_960: String,
    positions: usize,
    description: String,
}

/// A chi-square test of a sample drawn by a method (`chess960 fairness --sample`).
#[derive(Serialize)]
pub struct SampleJson {
    n: u64,
    chi_square: f64,
    df: u32,
    p_value: f64,
}

impl SampleJson {
    /// The test `t` of a sample of `n` draws.
    pub fn new(n: u64, t: ChiSquare) -> SampleJson {
        SampleJson {
            n,
            chi_square: t.statistic,
            df: t.df,
            p_value: t.p_value,
        }
    }
}

/// One method's line of the fairness table.
#[derive(Serialize)]
pub struct MethodJson {
    method: &'static str,
    uniform: bool,
    classes: Vec<ClassJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sample: Option<SampleJson>,
}

impl MethodJson {
    /// The line of `analysis` with its classes (and a sample's test).
    pub fn new(analysis: &Analysis, classes: &[Class], sample: Option<SampleJson>) -> MethodJson {
        MethodJson {
            method: analysis.method.name(),
            uniform: analysis.is_uniform(),
            classes: classes
                .iter()
                .map(|c| ClassJson {
                    times_960: c.times_960.to_string(),
                    positions: c.ids.len(),
                    description: c.description.clone(),
                })
                .collect(),
            sample,
        }
    }
}

/// The fairness table: `{"methods": [...]}`.
#[derive(Serialize)]
pub struct FairnessJson {
    /// One line per method.
    pub methods: Vec<MethodJson>,
}

/// The fairness table as `chess960 fairness --json` prints it (without a sample), as JSON
/// text. The exact enumeration takes a few hundred milliseconds, so it runs once per process;
/// call it from a blocking thread.
pub fn fairness() -> ApiResult<String> {
    static TABLE: OnceLock<Result<String, String>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            let props = properties();
            let mut methods = Vec::new();
            for method in Method::ALL {
                let analysis =
                    analyse(method).map_err(|e| format!("enumerating the {method} method: {e}"))?;
                let classes = analysis.classes_with(&props);
                methods.push(MethodJson::new(&analysis, &classes, None));
            }
            serde_json::to_string(&FairnessJson { methods }).map_err(|e| e.to_string())
        })
        .clone()
        .map_err(ApiError::internal)
}

/// `POST /api/draw`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawRequest {
    method: String,
    seed: Option<u64>,
    /// The outcomes a person got at the board, as `chess960 draw --outcomes` takes them.
    outcomes: Option<String>,
}

impl DrawRequest {
    /// The request for `method` with a seed or outcomes (`drawn.rs` replays a game's draw so).
    pub fn new(method: &str, seed: Option<u64>, outcomes: Option<String>) -> DrawRequest {
        DrawRequest {
            method: method.to_string(),
            seed,
            outcomes,
        }
    }
}

/// A drawn position, as `chess960 draw --json` prints it.
#[derive(Serialize)]
pub struct DrawJson {
    method: String,
    id: u16,
    back_rank: String,
    fen: String,
    steps: Vec<String>,
    /// The seed used (absent when the outcomes were given, and in the CLI's output).
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
}

impl DrawJson {
    /// The drawn start position's number.
    pub fn id(&self) -> u16 {
        self.id
    }

    /// The steps in words.
    pub fn steps(&self) -> &[String] {
        &self.steps
    }

    /// The position `rank` drawn by `method` in `steps`.
    pub fn new(method: &str, rank: &BackRank, steps: &[Step], seed: Option<u64>) -> DrawJson {
        let id = rank.id();
        DrawJson {
            method: method.to_string(),
            id: id.get(),
            back_rank: rank.to_string(),
            fen: id.position().fen(),
            steps: steps.iter().map(|s| s.text.clone()).collect(),
            seed,
        }
    }
}

/// Draws a position by a physical method, from a seed (random when none is given) or from a
/// person's outcomes.
pub fn draw(req: &DrawRequest) -> ApiResult<DrawJson> {
    if req.seed.is_some() && req.outcomes.is_some() {
        return Err(ApiError::bad_request(
            "seed: give either a seed or the outcomes, not both",
        ));
    }
    let name = req.method.trim();
    let done = |rank: BackRank, steps: Vec<Step>, seed: Option<u64>| {
        DrawJson::new(name, &rank, &steps, seed)
    };
    if name == "chosen" {
        // Nothing in the chosen method is random: it needs the players' placements.
        let text = req.outcomes.as_deref().ok_or_else(|| {
            ApiError::bad_request(
                "outcomes: the chosen method needs the placements, e.g. \"B c1, B f1, N b1, N g1, Q d1\"",
            )
        })?;
        let state = chess960_draw::chosen::replay(text)
            .map_err(|e| ApiError::unprocessable(format!("outcomes: {e}")))?;
        let (rank, _) = state.finish().ok_or_else(|| {
            ApiError::unprocessable("outcomes: the placements do not complete the position")
        })?;
        return Ok(done(rank, state.steps(), None));
    }
    let method: Method = name.parse().map_err(|e| {
        ApiError::bad_request(format!("method: {e} (or chosen, with its placements)"))
    })?;
    match &req.outcomes {
        Some(text) => {
            let drawn = replay(method, text)
                .map_err(|e| ApiError::unprocessable(format!("outcomes: {e}")))?;
            Ok(done(drawn.back_rank, drawn.steps, None))
        }
        None => {
            // A seed the server picks stays below 2^53, so that a client in JavaScript reads
            // it exactly and can send it back (`drawn` of a new game) to repeat the draw.
            let seed = req
                .seed
                .unwrap_or_else(|| SplitMix64::from_entropy().next_u64() >> 11);
            let drawn = draw_seeded(method, seed)
                .map_err(|e| ApiError::internal(format!("the {method} method failed: {e}")))?;
            Ok(done(drawn.back_rank, drawn.steps, Some(seed)))
        }
    }
}
