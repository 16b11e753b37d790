//! `cktile codegen`: a descriptor as a CUDA or HIP `__device__` offset function.

use crate::common::{Failure, bad, load};
use cktile::codegen::{self, Lang, Options};

/// The arguments of `cktile codegen`.
pub struct CodegenArgs<'a> {
    pub spec: &'a str,
    pub lang: &'a str,
    pub name: Option<&'a str>,
    pub output: Option<&'a str>,
}

/// Runs `cktile codegen`: the code on stdout, or written to `--output`
/// (then a one-line summary on stdout).
pub fn codegen(a: &CodegenArgs<'_>) -> Result<String, Failure> {
    let lang = Lang::by_name(a.lang).map_err(|e| bad(format!("--lang: {e}")))?;
    let (text, desc) = load(a.spec)?;
    let entry = codegen::entry_text(&text);
    let name = match a.name {
        Some(n) => n.to_string(),
        None => codegen::default_name(entry.and_then(|e| e.split(':').next())),
    };
    codegen::check_name(&name).map_err(|e| bad(format!("--name: {e}")))?;
    let mut options = Options::new(lang, &name);
    if let Some(e) = entry {
        options = options.with_entry(e);
    }
    let g = codegen::generate(&desc, &options).map_err(|e| Failure::input(&text, e))?;
    match a.output {
        None => Ok(g.code),
        Some(path) => {
            std::fs::write(path, &g.code)
                .map_err(|e| Failure { message: format!("error: cannot write `{path}`: {e}"), code: 1 })?;
            let mut functions = vec![format!("{name}_offset")];
            if g.has_validity {
                functions.push(format!("{name}_is_valid"));
            }
            if g.has_inverse() {
                functions.push(format!("{name}_coordinate"));
            }
            Ok(format!("wrote {path}: {} ({})", functions.join(", "), g.index_type))
        }
    }
}
