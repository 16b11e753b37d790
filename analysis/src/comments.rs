//! Comments, read alike in every text cktile reads: a spec (whose lexer
//! skips them), a catalogue entry, a distribution's name or spelling, as an
//! `@file` or a Python importer holds them. Outside the `spec` module,
//! which needs an allocator, so that the entry reader without one reads them
//! too.

/// The character that starts a comment in every text cktile reads (specs,
/// catalogue entries, distribution names): the comment runs to the end of
/// its line.
///
/// ```
/// assert_eq!(cktile_analysis::comments::COMMENT, '#');
/// ```
pub const COMMENT: char = '#';

/// What a reader of one-line texts (a catalogue entry, a distribution's
/// name) reads of `text`: the text after its leading blank and comment lines,
/// trimmed, and cut before a trailing comment when only blank and comment
/// lines follow that comment. A text that goes on after a comment (a spec
/// spanning lines) comes back whole from its first line on, for the spec
/// reader, which skips comments itself.
///
/// ```
/// use cktile_analysis::comments::uncommented;
/// assert_eq!(uncommented("# the A tile\nck-universal-a:m=128,k=64  # fp16\n# end\n"), "ck-universal-a:m=128,k=64");
/// assert_eq!(uncommented("  packed((4,8))  "), "packed((4,8))");
/// assert_eq!(uncommented("packed((4,8)) # a\n| transform(pass_through(4) on [0] -> [0])"),
///            "packed((4,8)) # a\n| transform(pass_through(4) on [0] -> [0])");
/// ```
pub fn uncommented(text: &str) -> &str {
    let is_quiet = |line: &str| {
        let line = line.trim();
        line.is_empty() || line.starts_with(COMMENT)
    };
    // The first line that holds more than a comment.
    let mut rest = text;
    while let Some((line, after)) = rest.split_once('\n') {
        if !is_quiet(line) {
            break;
        }
        rest = after;
    }
    if is_quiet(rest) {
        return "";
    }
    let Some(at) = rest.find(COMMENT) else { return rest.trim() };
    let after = rest[at..].split_once('\n').map_or("", |(_, after)| after);
    if after.lines().all(is_quiet) { rest[..at].trim() } else { rest.trim() }
}
