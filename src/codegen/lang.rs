//! [`Lang`]: the language the generated code is written in.

use crate::{Error, ParameterProblem, Snippet};

/// The target language of generated code. CUDA and HIP share one C++
/// dialect for this code; they differ only in the header comment and in the
/// include HIP needs (`<hip/hip_runtime.h>`, guarded by `__HIPCC__` so the
/// file still compiles with a host compiler).
///
/// ```
/// use cktile::codegen::Lang;
/// assert_eq!(Lang::by_name("hip"), Ok(Lang::Hip));
/// assert_eq!(Lang::Cuda.name(), "cuda");
/// assert!(Lang::by_name("opencl").unwrap_err().to_string().contains("cuda, hip"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// CUDA C++ (nvcc, clang).
    Cuda,
    /// HIP C++ (hipcc).
    Hip,
}

/// Every language name, for messages.
///
/// ```
/// assert_eq!(cktile::codegen::LANG_NAMES, "cuda, hip");
/// ```
pub const LANG_NAMES: &str = "cuda, hip";

impl Lang {
    /// The language called `name` (`cuda` or `hip`).
    ///
    /// ```
    /// assert_eq!(cktile::codegen::Lang::by_name("cuda"), Ok(cktile::codegen::Lang::Cuda));
    /// ```
    pub fn by_name(name: &str) -> Result<Lang, Error> {
        match name {
            "cuda" => Ok(Lang::Cuda),
            "hip" => Ok(Lang::Hip),
            _ => Err(Error::parameter(ParameterProblem::UnknownName { name: Snippet::new(name), valid: LANG_NAMES })),
        }
    }

    /// The language's name, as [`by_name`](Self::by_name) takes it.
    ///
    /// ```
    /// assert_eq!(cktile::codegen::Lang::Hip.name(), "hip");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Lang::Cuda => "cuda",
            Lang::Hip => "hip",
        }
    }

    /// The language as people write it, for the header comment.
    ///
    /// ```
    /// assert_eq!(cktile::codegen::Lang::Cuda.title(), "CUDA C++");
    /// ```
    pub const fn title(self) -> &'static str {
        match self {
            Lang::Cuda => "CUDA C++",
            Lang::Hip => "HIP C++",
        }
    }
}
