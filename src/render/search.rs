//! A search report as text: the problem, the families searched, the best
//! layouts, the Pareto front and, when nothing is conflict-free, why.

use super::bank::lane_ranges;
use crate::search::{Candidate, LayoutFamily, SearchReport};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

fn dtype_name(bytes: usize) -> &'static str {
    match bytes {
        1 => "8-bit",
        2 => "16-bit",
        4 => "32-bit",
        _ => "64-bit",
    }
}

fn per_pattern(c: &Candidate) -> String {
    let parts: Vec<String> = c.costs.iter().map(|k| format!("{}", k.cycles)).collect();
    parts.join(" + ")
}

/// The report as the command line prints it (`limit`: how many optimal
/// candidates to list).
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::search::{Problem, search};
/// let p = Problem::new(16, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
/// let text = cktile::render::search::report(&search(&p)?, 5);
/// assert!(text.contains("conflict-free"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn report(r: &SearchReport, limit: usize) -> String {
    let names: Vec<String> = r
        .problem
        .accesses()
        .into_iter()
        .map(|(role, pat)| {
            format!("{} {}", if role == crate::search::Role::Write { "write" } else { "read" }, pat.name())
        })
        .collect();
    let mut s = heading(r, &names);
    windows(&mut s, r);
    families(&mut s, r);
    best(&mut s, r, limit);
    if !r.conflict_free() {
        why_not_conflict_free(&mut s, r, &names);
    }
    s
}

/// The problem: tile, chip, accesses, and the minimum against the row-major tile.
fn heading(r: &SearchReport, names: &[String]) -> String {
    let p = &r.problem;
    let minima: Vec<String> = r.minimum.iter().map(|m| format!("{m}")).collect();
    format!(
        "Layout search: {}x{} tile of {} elements on {} (bank period {} bytes); vectors of {} elements stay contiguous\n\
         accesses: {}\n\
         conflict-free minimum: {} cycles ({}); the row-major tile takes {} ({})\n\n",
        p.rows,
        p.cols,
        dtype_name(p.element_bytes),
        p.arch.name(),
        p.bank_period_bytes(),
        r.vector,
        names.join(", "),
        r.minimum_cycles(),
        minima.join(" + "),
        r.naive.cycles,
        per_pattern(&r.naive),
    )
}

/// What a tile-window access counts here: its window repeated over the
/// whole tile, where `cktile analyze --distribution` counts one window.
fn windows(s: &mut String, r: &SearchReport) {
    let (rows, cols) = (r.problem.rows, r.problem.cols);
    let mut any = false;
    for (_, access) in r.problem.accesses() {
        if let Some((m, k)) = access.window() {
            let count = if m > 0 && k > 0 { (rows / m) * (cols / k) } else { 0 };
            s.push_str(&format!(
                "{}: its {m}x{k} window repeated over the {rows}x{cols} tile ({count} windows); \
                 `cktile analyze --distribution` counts the one window at the tile's origin\n",
                access.name()
            ));
            any = true;
        }
    }
    if any {
        s.push('\n');
    }
}

/// Each family searched: its members, the valid ones, and what its note adds.
fn families(s: &mut String, r: &SearchReport) {
    s.push_str("Families (each searched exhaustively within the limits):\n");
    for f in &r.families {
        s.push_str(&format!("  {:<18} {:>6} members, {:>6} valid", f.family.entry(), f.members, f.valid));
        // What the note adds to the family's fixed range: classes, left-out members.
        match f.note.strip_prefix(f.family.range()).map(|rest| rest.trim_start_matches("; ")) {
            Some(detail) if !detail.is_empty() => s.push_str(&format!(" ({detail})\n")),
            Some(_) => s.push('\n'),
            None => s.push_str(&format!(" ({})\n", f.note)),
        }
    }
    s.push_str(&format!("  {} layouts counted in all\n\n", r.evaluated));
}

/// The best layout and its descriptor, the equally good ones (at most
/// `limit`), CK's own choice, and the Pareto front.
fn best(s: &mut String, r: &SearchReport, limit: usize) {
    let eb = r.problem.element_bytes;
    let best = r.best();
    let verdict = if r.conflict_free() {
        "conflict-free".into()
    } else {
        format!("{} over the minimum", best.cycles - r.minimum_cycles())
    };
    s.push_str(&format!(
        "Best: {}\n  {} cycles ({}; {verdict}), {} extra bytes, {} transforms{}\n",
        best.entry,
        best.cycles,
        per_pattern(best),
        best.extra_bytes,
        best.transforms,
        cute(best, eb)
    ));
    if let Ok(d) = best.descriptor() {
        // The spec as `cktile analyze` and the other commands read it back.
        s.push_str("  spec:\n");
        for line in format!("{d}").lines() {
            s.push_str(&format!("    {line}\n"));
        }
    }
    s.push_str(&format!("\nEqually good ({} layouts", r.optimal.len()));
    if r.xor_linear_optimal_classes > 0 {
        s.push_str(&format!("; {} xor-linear classes", r.xor_linear_optimal_classes));
    }
    s.push_str("):\n");
    for c in r.optimal.iter().take(limit) {
        s.push_str(&format!("  {} ({} transforms{})\n", c.entry, c.transforms, cute(c, eb)));
    }
    if r.optimal.len() > limit {
        s.push_str(&format!("  ... {} more (--top N or --json lists them)\n", r.optimal.len() - limit));
    }
    if let Some(ck) = r.candidates.iter().find(|c| c.family == LayoutFamily::CkUniversal) {
        let rank =
            if ck.cycles == best.cycles && ck.extra_bytes == best.extra_bytes { "optimal" } else { "not optimal" };
        s.push_str(&format!("CK Tile's own choice: {}: {} cycles, {rank}\n", ck.entry, ck.cycles));
    }
    s.push_str("\nPareto front (cycles against extra bytes):\n");
    for c in &r.front {
        s.push_str(&format!("  {:>8} cycles {:>8} bytes  {}\n", c.cycles, c.extra_bytes, c.entry));
    }
}

/// `; CuTe Swizzle<..> on elements = Swizzle<..> on bytes` for a CuTe
/// swizzle (its [`Candidate::label`]), after the catalogue entry that pastes
/// back; nothing for the other families.
fn cute(c: &Candidate, element_bytes: usize) -> String {
    let label = c.label(element_bytes);
    if label == c.entry { String::new() } else { format!("; CuTe {label}") }
}

/// Why no layout searched is conflict-free: the vector bound, each pattern's
/// own best, and the best layout's phases that no row move can separate.
fn why_not_conflict_free(s: &mut String, r: &SearchReport, names: &[String]) {
    let best = r.best();
    s.push_str(&format!(
        "\nNo layout searched is conflict-free. {} cycles is a lower bound for these families: every member was counted.\n",
        best.cycles
    ));
    let bound: u64 = r.vector_bound.iter().sum();
    if bound > r.minimum_cycles() {
        s.push_str(&format!(
            "  Any layout that keeps {}-element vectors contiguous and aligned needs at least {bound} cycles: a \
             word at offset o of its vector can only use the banks b with b % V = o % V (V = words per vector), \
             and some phases touch more words at one offset than those banks hold.{}\n",
            r.vector,
            if bound == best.cycles { " The best layout reaches that bound." } else { "" }
        ));
    }
    let alone: Vec<String> =
        r.pattern_best.iter().zip(&r.minimum).zip(names).map(|((b, m), n)| format!("{n}: {b} (minimum {m})")).collect();
    s.push_str(&format!("  Each pattern alone at best: {}\n", alone.join("; ")));
    if r.pattern_best.iter().sum::<u64>() < best.cycles {
        s.push_str("  The patterns clash: no single layout gives each its own best.\n");
    }
    if !r.stuck.is_empty() {
        s.push_str(&format!(
            "  {} conflicting phases of the best layout have all their lanes in one row; row padding and \
             row-indexed XORs move a row as a whole, so they cannot separate them. For example:\n",
            r.stuck.len()
        ));
        for st in r.stuck.iter().take(3) {
            s.push_str(&format!(
                "    {} instruction {} phase {}: lanes {} all in row {}, {} cycles\n",
                names.get(st.pattern).map_or("?", String::as_str),
                st.instruction,
                st.phase,
                lane_ranges(&st.lanes),
                st.row,
                st.cycles
            ));
        }
    }
}

/// The listed layouts under a public model (`cktile search --model`): the
/// model and its evidence, then each layout's accesses with the model's
/// worst ways or its refusal.
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::reports::models::Model;
/// use cktile::search::{Problem, search, under_model};
/// let p = Problem::new(128, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
/// let r = search(&p)?;
/// let text = cktile::render::search::under_model(Model::Iree, &under_model(&r, Model::Iree, 1)?);
/// assert!(text.starts_with("Under the iree model"), "{text}");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn under_model(model: crate::reports::models::Model, judged: &[crate::search::Judged]) -> String {
    let mut out = alloc::format!(
        "Under the {} model ({}; the ranking above is cktile's table): {}\n",
        model.name(),
        model.evidence().word(),
        model.source()
    );
    for j in judged {
        let answers: Vec<String> = j
            .answers
            .iter()
            .map(|(access, a)| match a {
                Ok(w) => alloc::format!("{access} {w}-way"),
                Err(e) => alloc::format!("{access} silent ({e})"),
            })
            .collect();
        out.push_str(&alloc::format!("  {} ({} cycles by cktile): {}\n", j.entry, j.cycles, answers.join("; ")));
    }
    out
}

/// The best layout and the next equally good ones, `limit` in all, in
/// `peer`'s own terms (`cktile search --as`): each catalogue entry, then
/// its peer text or the peer's refusal.
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::export::Peer;
/// let p = cktile::search::Problem::new(64, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
/// let r = cktile::search::search(&p)?;
/// let out = cktile::render::search::answers(&r, 2, Peer::Triton);
/// assert!(out.starts_with(&format!("As triton:\n  {}\n    gl.SharedLinearLayout(offset_bases=[", r.best().entry)), "{out}");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn answers(r: &SearchReport, limit: usize, peer: crate::export::Peer) -> String {
    let mut out = format!("As {}:\n", peer.name());
    let best = r.best();
    let others = r.optimal.iter().filter(|c| c.entry != best.entry);
    for c in core::iter::once(best).chain(others).take(limit.max(1)) {
        out.push_str(&format!("  {}\n    {}\n", c.entry, super::export::answer_text(c.descriptor(), peer)));
    }
    out
}
