//! `cktile render`: pictures of a descriptor as SVG (layout grid, bank heat map, transform chain) or of a
//! tile distribution (owner grid).

use crate::common::{Failure, bad, element_bytes, load_typed};
use cktile::analyzer::{Arch, Op, Pattern};
use cktile::render::svg::{banks, chain, grid, owners};

/// The arguments of `cktile render`.
pub struct RenderArgs<'a> {
    pub spec: &'a str,
    pub view: &'a str,
    pub arch: &'a str,
    pub pattern: Option<&'a str>,
    pub distribution: Option<&'a str>,
    pub op: Option<&'a str>,
    pub dtype: Option<&'a str>,
    pub instruction: Option<usize>,
    pub rows: Option<usize>,
    pub cols: Option<usize>,
    pub title: Option<&'a str>,
    pub output: Option<&'a str>,
}

/// The default title: the SPEC argument when it is a one-line spec or entry.
fn default_title(spec: &str, text: &str) -> String {
    cktile::render::svg::title_of(if spec.starts_with('@') || spec == "-" { text } else { spec })
}

/// Runs `cktile render`.
pub fn render(a: &RenderArgs<'_>) -> Result<String, Failure> {
    if a.view == "distribution" {
        // SPEC is a distribution here: a catalogue name or CK's spelling.
        let (text, d) = crate::distribution::load_distribution(a.spec)?;
        let title = a.title.map_or_else(|| default_title(a.spec, &text), str::to_string);
        let svg = owners::owners(&d, &title, a.rows, a.cols).map_err(|e| Failure::input(&text, e))?;
        return write_out(a.output, svg);
    }
    let (text, layout) = load_typed(a.spec, a.dtype)?;
    let desc = &layout.descriptor;
    let arch = Arch::by_name(a.arch).map_err(|e| bad(format!("--arch: {e}")))?;
    let title = a.title.map_or_else(|| default_title(a.spec, &text), str::to_string);
    let svg = match a.view {
        "grid" => {
            let op = a.op.map(Op::by_name).transpose().map_err(|e| bad(format!("--op: {e}")))?;
            let mut o = grid::GridOptions::for_chip(&title, element_bytes(&layout)?, &arch, op);
            o.rows = a.rows;
            o.cols = a.cols;
            grid::grid(desc, &o).map_err(|e| Failure::input(&text, e))?
        }
        "banks" => {
            let op = a.op.map(Op::by_name).transpose().map_err(|e| bad(format!("--op: {e}")))?;
            let eb = element_bytes(&layout)?;
            match (a.pattern, a.distribution) {
                (_, Some(encoding)) => {
                    let (enc_text, d) = crate::distribution::load_distribution(encoding)?;
                    let op = op.ok_or_else(|| bad("--distribution needs the instruction it issues (--op)".into()))?;
                    banks::distribution_heat_map(desc, eb, &arch, &d, op, a.instruction, &title).map_err(|e| match e
                        .position()
                    {
                        Some(_) => Failure::input(&enc_text, e),
                        None => Failure::input(&text, e),
                    })?
                }
                (Some(name), None) => {
                    let pattern = Pattern::by_name(name, op).map_err(|e| bad(format!("--pattern: {e}")))?;
                    banks::tile_heat_map(desc, eb, &arch, pattern, a.instruction, &title)
                        .map_err(|e| Failure::input(&text, e))?
                }
                (None, None) => {
                    return Err(bad(
                        "--view banks needs --pattern (e.g. --pattern mfma16) or --distribution with --op".into(),
                    ));
                }
            }
        }
        "chain" => chain::chain(desc, &title),
        other => {
            return Err(bad(format!(
                "--view: `{other}` is not a view; expected grid, banks or chain for a descriptor, or distribution \
                 for a tile distribution"
            )));
        }
    };
    write_out(a.output, svg)
}

/// Writes the picture to `output` (a file, or stdout for `None` / `-`).
fn write_out(output: Option<&str>, svg: String) -> Result<String, Failure> {
    match output {
        Some(path) if path != "-" => {
            std::fs::write(path, &svg)
                .map_err(|e| Failure { message: format!("error: cannot write `{path}`: {e}"), code: 1 })?;
            Ok(format!("wrote {path} ({} bytes)", svg.len()))
        }
        _ => Ok(svg),
    }
}
