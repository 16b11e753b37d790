//! Checking the name the generated functions are prefixed with.

use crate::error::{Error, ErrorKind, Snippet};

/// What a name must be, for messages.
///
/// ```
/// assert!(cktile::codegen::IDENT_RULE.starts_with("a C++ identifier"));
/// ```
pub const IDENT_RULE: &str = "a C++ identifier for --name: ASCII letters, digits and `_`, not starting with a digit, \
not starting with `__` or `_` and a capital letter (reserved), not a C++ keyword, at most 64 characters";

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

/// Checks that `name` can prefix the generated functions (see [`IDENT_RULE`]).
///
/// ```
/// use cktile::codegen::check_name;
/// assert!(check_name("gemm_a_lds").is_ok());
/// let e = check_name("3d").unwrap_err();
/// assert_eq!(e.to_string(), format!("expected {}, found `3d`", cktile::codegen::IDENT_RULE));
/// assert!(check_name("int").is_err() && check_name("__x").is_err() && check_name("a-b").is_err());
/// ```
pub fn check_name(name: &str) -> Result<(), Error> {
    let bad = || Error::new(ErrorKind::Syntax { expected: IDENT_RULE, found: Snippet::new(name) });
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    let rest_ok = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let reserved =
        name.starts_with("__") || (name.starts_with('_') && name[1..].starts_with(|c: char| c.is_ascii_uppercase()));
    if !first_ok || !rest_ok || reserved || name.len() > 64 || KEYWORDS.contains(&name) {
        return Err(bad());
    }
    Ok(())
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
