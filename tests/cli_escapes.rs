//! User text never reaches the terminal raw (issue 34, class 6): every
//! input channel of the `cktile` binary (positional SPEC, NAME and ENCODING
//! arguments, every option whose value a message or report can quote, file
//! paths, file contents, stdin and `bank`'s JSON request) is fed control
//! sequences, and neither stdout nor stderr may carry a control character
//! (C0 but the program's own newlines and tabs, DEL, C1) or a bidirectional
//! control: each is spelled out (`\u{1b}`) where the text is quoted.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// An OSC that sets the terminal's title, then a C1 CSI (U+009B) that
/// would colour the rest red, DEL, and a right-to-left override.
const PAYLOAD: &str = "\u{1b}]0;pwned\u{7}\u{9b}31m\u{7f}\u{202e}";

/// [`PAYLOAD`] as a message quotes it.
const SHOWN: &str = "\\u{1b}]0;pwned\\u{7}\\u{9b}31m\\u{7f}\\u{202e}";

/// Runs the binary with `args` and `stdin`, as on a terminal that takes
/// colours (`CLICOLOR_FORCE`: clap would strip escape sequences on a pipe).
fn run(args: &[String], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(args)
        .env("CLICOLOR_FORCE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A run that never reads stdin may close it first: a broken pipe is fine.
    let _ = child.stdin.take().expect("stdin is piped").write_all(stdin);
    child.wait_with_output().expect("the binary finishes")
}

/// The characters of `text` that act on a terminal: C0 but newline and
/// tab, DEL, C1, and the bidirectional controls.
fn hidden(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| c != '\n' && c != '\t')
        .filter(|&c| {
            c.is_control()
                || matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        })
        .collect()
}

/// A file under the target directory holding `contents` (named by `name`).
fn file(name: &str, contents: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_escapes");
    std::fs::create_dir_all(&dir).expect("the temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("the file is written");
    path.to_string_lossy().into_owned()
}

/// Every channel, fed [`PAYLOAD`]: the arguments and the stdin of a run.
fn channels() -> Vec<(Vec<String>, Vec<u8>)> {
    let p = PAYLOAD;
    let comment = format!("packed((16,64)) # {p}");
    let spec_file = file("spec.txt", &format!("naive((4),(1)) |\n {p}()"));
    let commented_file = file("commented.txt", &comment);
    let missing = format!("/nonexistent-cktile-dir/{p}");
    let tile_args = |extra: &[&str]| {
        let mut v: Vec<String> =
            ["search", "--tile", "64x64", "--dtype", "fp16", "--arch", "gfx942", "--write", "ds_write_b128:row"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let bank_json = |arch: &str, op: &str| {
        format!("{{\"arch\": \"{arch}\", \"op\": \"{op}\", \"addresses\": [0, 4]}}").into_bytes()
    };
    let escaped = "\\u001b]0;pwned\\u0007\\u009b31m\\u007f\\u202e";
    let args: Vec<Vec<String>> = vec![
        // Positional SPEC: a catalogue name, a parameter value, a syntax error, a comment.
        vec!["check".into(), format!("ck-{p}x:m=1")],
        vec!["check".into(), format!("ck-universal-a:m=1{p}")],
        vec!["check".into(), format!("naive((4),(1)) | {p}()")],
        vec!["check".into(), comment.clone()],
        vec!["check".into(), comment.clone(), "--json".into()],
        vec!["offsets".into(), comment.clone(), "--json".into()],
        vec!["offsets".into(), "packed((4,8))".into(), "--at".into(), format!("1,{p}")],
        // `@path`: a missing file, a file's contents, a file with a comment.
        vec!["offsets".into(), format!("@{missing}")],
        vec!["check".into(), format!("@{spec_file}")],
        vec!["check".into(), format!("@{commented_file}")],
        vec!["check".into(), format!("ck-universal-a:m=128,k=32,dtype={p}")],
        // analyze: the spec, --arch, --pattern, --dtype, --op, --distribution.
        vec!["analyze".into(), comment.clone(), "--arch".into(), "gfx942".into(), "--pattern".into(), "rows".into()],
        vec!["analyze".into(), comment.clone(), "--arch".into(), p.into(), "--pattern".into(), "rows".into()],
        vec!["analyze".into(), comment.clone(), "--arch".into(), "gfx942".into(), "--pattern".into(), p.into()],
        vec![
            "analyze".into(),
            "packed((16,64))".into(),
            "--arch".into(),
            "gfx942".into(),
            "--pattern".into(),
            "rows".into(),
            "--dtype".into(),
            p.into(),
        ],
        vec![
            "analyze".into(),
            comment.clone(),
            "--arch".into(),
            "gfx942".into(),
            "--pattern".into(),
            "rows".into(),
            "--dtype".into(),
            "fp16".into(),
            "--op".into(),
            p.into(),
        ],
        vec![
            "analyze".into(),
            comment.clone(),
            "--arch".into(),
            "gfx942".into(),
            "--distribution".into(),
            format!("mfma16x16x32_a{p}"),
            "--op".into(),
            "ds_read_b128".into(),
            "--dtype".into(),
            "fp16".into(),
        ],
        vec![
            "analyze".into(),
            comment.clone(),
            "--arch".into(),
            "gfx942".into(),
            "--pattern".into(),
            "rows".into(),
            "--dtype".into(),
            "fp16".into(),
            "--json".into(),
        ],
        // search: every option.
        tile_args(&["--tile", &format!("64{p}x64")]),
        tile_args(&["--dtype", p]),
        tile_args(&["--arch", p]),
        tile_args(&["--write", &format!("{p}:row")]),
        tile_args(&["--read", &format!("mfma16x16x32_a{p}:ds_read_b128")]),
        tile_args(&["--top", &format!("1{p}")]),
        tile_args(&["--vector", &format!("8{p}")]),
        tile_args(&["--max-padding-bytes", &format!("0{p}")]),
        // dma-plan: the spec (text and JSON), --global-strides, --arch, --dtype, --width.
        vec![
            "dma-plan".into(),
            comment.clone(),
            "--global-strides".into(),
            "64,1".into(),
            "--width".into(),
            "4".into(),
            "--dtype".into(),
            "fp32".into(),
            "--json".into(),
        ],
        vec![
            "dma-plan".into(),
            comment.clone(),
            "--global-strides".into(),
            format!("64,{p}"),
            "--width".into(),
            "4".into(),
            "--dtype".into(),
            "fp32".into(),
        ],
        vec![
            "dma-plan".into(),
            comment.clone(),
            "--global-strides".into(),
            "64,1".into(),
            "--width".into(),
            "4".into(),
            "--dtype".into(),
            "fp32".into(),
            "--arch".into(),
            p.into(),
        ],
        vec![
            "dma-plan".into(),
            comment.clone(),
            "--global-strides".into(),
            "64,1".into(),
            "--width".into(),
            format!("4{p}"),
            "--dtype".into(),
            "fp32".into(),
        ],
        // codegen: the spec (quoted in the leading comment), --lang, --name, --output.
        vec!["codegen".into(), comment.clone(), "--lang".into(), "cuda".into()],
        vec!["codegen".into(), comment.clone(), "--lang".into(), p.into()],
        vec!["codegen".into(), comment.clone(), "--lang".into(), "cuda".into(), "--name".into(), format!("a{p}")],
        vec!["codegen".into(), comment.clone(), "--lang".into(), "cuda".into(), "-o".into(), missing.clone()],
        // render: the default title, --title, --view, --arch, --pattern, --output.
        vec!["render".into(), comment.clone(), "--dtype".into(), "fp16".into()],
        vec!["render".into(), comment.clone(), "--view".into(), "chain".into(), "--title".into(), p.into()],
        vec!["render".into(), comment.clone(), "--view".into(), p.into()],
        vec!["render".into(), comment.clone(), "--dtype".into(), "fp16".into(), "--arch".into(), p.into()],
        vec![
            "render".into(),
            comment.clone(),
            "--view".into(),
            "banks".into(),
            "--dtype".into(),
            "fp16".into(),
            "--pattern".into(),
            p.into(),
        ],
        vec!["render".into(), comment.clone(), "--view".into(), "chain".into(), "-o".into(), missing.clone()],
        vec!["render".into(), format!("mfma16x16x16_a # {p}"), "--view".into(), "distribution".into()],
        // distribution, catalogue, rules: the positional and --arch.
        vec!["distribution".into(), format!("mfma16x16x16_a{p}")],
        vec!["distribution".into(), format!("mfma16x16x16_a # {p}"), "--json".into()],
        // --compose: the layout echoed in the "Composed with" line, and refused.
        vec![
            "distribution".into(),
            "mfma16x16x16_a".into(),
            "--brief".into(),
            "--compose".into(),
            format!("packed((16,16)) # {p}"),
        ],
        vec!["distribution".into(), "mfma16x16x16_a".into(), "--compose".into(), format!("packed((16,{p}16))")],
        vec![
            "distribution".into(),
            "mfma16x16x16_a".into(),
            "--json".into(),
            "--compose".into(),
            format!("packed((16,16)) # {p}"),
        ],
        vec!["catalogue".into(), p.into()],
        vec!["rules".into(), "--arch".into(), p.into()],
        // clap's own refusals: an unknown option, subcommand and value.
        vec![format!("--bogus{p}")],
        vec![p.into()],
        vec!["check".into(), "packed((4))".into(), format!("--{p}")],
    ];
    let mut runs: Vec<(Vec<String>, Vec<u8>)> = args.into_iter().map(|a| (a, Vec::new())).collect();
    // stdin: a spec, a distribution, and bank's request (raw and JSON-escaped).
    runs.push((vec!["check".into(), "-".into()], format!("ck-{p}x").into_bytes()));
    runs.push((vec!["check".into(), "-".into()], comment.clone().into_bytes()));
    runs.push((vec!["distribution".into(), "-".into()], format!("mfma16x16x16_a{p}").into_bytes()));
    runs.push((vec!["bank".into()], bank_json(p, "ds_read_b32")));
    runs.push((vec!["bank".into()], bank_json(escaped, "ds_read_b32")));
    runs.push((vec!["bank".into()], bank_json("gfx942", escaped)));
    runs.push((
        vec!["bank".into()],
        format!("{{\"arch\": \"gfx942\", \"op\": \"ds_read_b32\", \"addresses\": [0], \"x{escaped}\": 1}}")
            .into_bytes(),
    ));
    runs.push((
        vec!["bank".into()],
        format!("{{\"arch\": \"gfx942\", \"op\": \"ds_read_b32\", \"addresses\": [0{p}]}}").into_bytes(),
    ));
    runs
}

#[test]
fn no_channel_echoes_a_control_character() {
    let mut leaks = Vec::new();
    for (args, stdin) in channels() {
        let o = run(&args, &stdin);
        for (stream, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
            let text = String::from_utf8_lossy(bytes);
            let found = hidden(&text);
            if !found.is_empty() {
                leaks.push(format!("{args:?} (stdin {:?}): {stream} has {found:?}", String::from_utf8_lossy(&stdin)));
            }
        }
    }
    assert!(leaks.is_empty(), "{} runs leak control characters:\n{}", leaks.len(), leaks.join("\n"));
}

#[test]
fn quoted_names_spell_their_control_characters_out() {
    let o = run(&["check".into(), format!("ck-{PAYLOAD}x:m=1")], b"");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "error: unknown name `ck-{SHOWN}x`; expected one of: ck-universal-a, ck-xor-lds, ck-xor-preshuffle, \
             ck-kfold-mpair, ck-v1-padded, ck-fmha-v, cute-swizzle, cute-gmma, cute-tma, triton-swizzled, \
             triton-nvmma, triton-rotating, row-padded, xor-linear\n"
        )
    );
    let o = run(&["search".into(), "--tile".into(), format!("8{PAYLOAD}x8")], b"");
    assert_eq!(o.status.code(), Some(2));
    let o = run(
        &["search", "--tile", format!("8{PAYLOAD}x8").as_str(), "--dtype", "fp16", "--arch", "gfx942"]
            .map(String::from),
        b"",
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!("error: --tile: `8{SHOWN}x8` is not ROWSxCOLS; write e.g. --tile 128x64\n")
    );
}

#[test]
fn json_reports_escape_what_serde_writes_raw() {
    // DEL, C1 and the bidirectional controls are legal raw in a JSON string;
    // the report escapes them and still reads back as the same text.
    let spec = format!("packed((16,64)) # {PAYLOAD}");
    let o = run(
        &["dma-plan", spec.as_str(), "--global-strides", "64,1", "--width", "4", "--dtype", "fp32", "--json"]
            .map(String::from),
        b"",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).expect("UTF-8");
    assert!(text.contains("# \\u001b]0;pwned\\u0007\\u009b31m\\u007f\\u202e"), "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).expect("one JSON object");
    assert_eq!(v["spec"], serde_json::Value::String(spec));
}

#[test]
fn clap_refusals_keep_their_exit_code_and_show_the_argument() {
    let o = run(&[format!("--bogus{PAYLOAD}")], b"");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with(&format!("error: unexpected argument '--bogus{SHOWN}' found\n")), "{err}");
    let o = run(&["--version".into()], b"");
    assert_eq!((o.status.code(), String::from_utf8_lossy(&o.stdout).starts_with("cktile ")), (Some(0), true));
}
