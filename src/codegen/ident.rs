//! Checking the name the generated functions are prefixed with, and making
//! text safe to quote in the generated code's `//` comments.

use crate::{Error, ParameterProblem, Snippet};
pub use cktile_core::error::{IDENT_RULE, NameProblem};

/// C++ keywords (and alternative tokens) a name may not be.
const KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char16_t",
    "char32_t",
    "char8_t",
    "class",
    "compl",
    "concept",
    "const",
    "consteval",
    "constexpr",
    "constinit",
    "const_cast",
    "continue",
    "co_await",
    "co_return",
    "co_yield",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
];

/// Checks that `name` can prefix the generated functions (see [`IDENT_RULE`]):
/// the functions are `NAME_offset`, `NAME_is_valid`, `NAME_coordinate` and
/// constants `NAME_rank`, `NAME_length0`, ... at global scope, so a name
/// the C and C++ standards reserve there (a leading `_`, a `__` anywhere,
/// or a trailing `_` that makes one with the suffix) is refused, as are
/// keywords; the error says which rule the name breaks.
///
/// ```
/// use cktile::codegen::check_name;
/// assert!(check_name("gemm_a_lds").is_ok());
/// let e = check_name("3d").unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     format!("`3d` cannot name the generated functions: it starts with `3`, not a letter; expected {}", cktile::codegen::IDENT_RULE)
/// );
/// for bad in ["", "int", "__x", "_x", "_X", "a__b", "a_", "a-b", "a b"] {
///     assert!(check_name(bad).is_err(), "{bad}");
/// }
/// assert!(check_name("").unwrap_err().to_string().starts_with("the name of the generated functions is empty"));
/// ```
pub fn check_name(name: &str) -> Result<(), Error> {
    let reason = if name.is_empty() {
        Some(NameProblem::Empty)
    } else if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '_')) {
        Some(NameProblem::Character(c))
    } else if name.starts_with('_') {
        Some(NameProblem::LeadingUnderscore)
    } else if let Some(c) = name.chars().next().filter(|c| c.is_ascii_digit()) {
        Some(NameProblem::LeadingDigit(c))
    } else if name.contains("__") {
        Some(NameProblem::DoubleUnderscore)
    } else if name.ends_with('_') {
        Some(NameProblem::TrailingUnderscore)
    } else if KEYWORDS.contains(&name) {
        Some(NameProblem::Keyword)
    } else if name.len() > 64 {
        Some(NameProblem::TooLong(name.len()))
    } else {
        None
    };
    match reason {
        None => Ok(()),
        Some(problem) => Err(Error::parameter(ParameterProblem::InvalidName { name: Snippet::new(name), problem })),
    }
}

/// `text` made safe for one `//` comment line of generated code: every run
/// of whitespace (newlines included) becomes one space, every character
/// outside printable ASCII becomes `?`, `??` becomes `? ?` (so no trigraph
/// such as `??/` appears), and a trailing `\` (which would continue the
/// comment onto the next line) is followed by a `.`.
///
/// ```
/// use cktile::codegen::comment_text;
/// assert_eq!(comment_text("row-padded:\n  rows=4,\r\n  cols=4 */ é"), "row-padded: rows=4, cols=4 */ ?");
/// assert_eq!(comment_text("a \\"), "a \\.");
/// assert_eq!(comment_text("??/ ??="), "? ?/ ? ?=");
/// ```
pub fn comment_text(text: &str) -> alloc::string::String {
    let mut out = alloc::string::String::with_capacity(text.len());
    for word in text.split(|c: char| c.is_whitespace()).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        for c in word.chars().map(|c| if c.is_ascii_graphic() { c } else { '?' }) {
            // No `??`: with the next character it could be a trigraph (`??/` is a backslash).
            if c == '?' && out.ends_with('?') {
                out.push(' ');
            }
            out.push(c);
        }
    }
    if out.ends_with('\\') {
        out.push('.');
    }
    out
}

/// A default name from a catalogue entry's name (`ck-universal-a` becomes
/// `ck_universal_a`), or `layout` for a spec.
///
/// ```
/// use cktile::codegen::default_name;
/// assert_eq!(default_name(Some("ck-universal-a")), "ck_universal_a");
/// assert_eq!(default_name(None), "layout");
/// ```
pub fn default_name(entry: Option<&str>) -> alloc::string::String {
    match entry {
        Some(e) => e.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect(),
        None => "layout".into(),
    }
}
