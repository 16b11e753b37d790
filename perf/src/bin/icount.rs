//! Instruction-count driver: runs one workload a given number of times, for
//! `valgrind --tool=callgrind` (which counts instructions, robust to load).
//!
//! `icount offsets <case> <hand|runtime|program|batch|columns|move> <reps>`, `icount analyze <reps>`,
//! `icount search <reps> [problem]` (a name of `workloads::PROBLEMS`), `icount none` (start-up cost, subtracted).

use cktile::Coordinate;
use cktile_perf::cases::CASES;
use cktile_perf::workloads;
use std::hint::black_box;

fn offsets(case: &str, variant: &str, reps: u64) -> Result<i64, String> {
    let c = CASES.iter().find(|c| c.name == case).ok_or_else(|| format!("no case {case}"))?;
    let d = cktile::spec::parse(c.spec).map_err(|e| e.to_string())?;
    #[cfg(feature = "program")]
    let p = cktile::Program::of(&d);
    let mut sum = 0i64;
    for _ in 0..reps {
        match variant {
            "hand" => {
                for m in 0..black_box(c.rows) {
                    for k in 0..black_box(c.cols) {
                        sum = sum.wrapping_mul(31).wrapping_add((c.hand)(m, k));
                    }
                }
            }
            "runtime" => {
                for m in 0..black_box(c.rows) {
                    for k in 0..black_box(c.cols) {
                        sum = sum.wrapping_mul(31).wrapping_add(black_box(&d).calculate_offset(&[m, k]));
                    }
                }
            }
            #[cfg(feature = "program")]
            "program" => {
                for m in 0..black_box(c.rows) {
                    for k in 0..black_box(c.cols) {
                        sum = sum.wrapping_mul(31).wrapping_add(black_box(&p).calculate_offset(&[m, k]));
                    }
                }
            }
            #[cfg(feature = "batch")]
            "batch" => {
                // Program::offsets_if_valid, one call per row of up to LANES columns.
                const L: usize = cktile::program::LANES;
                let (mut coords, mut out) = ([[0i64; 2]; L], [None; L]);
                for m in 0..black_box(c.rows) {
                    let mut k0 = 0;
                    while k0 < c.cols {
                        let n = (c.cols - k0).min(L as i64) as usize;
                        for (i, xy) in coords[..n].iter_mut().enumerate() {
                            *xy = [m, k0 + i as i64];
                        }
                        black_box(&p).offsets_if_valid(&coords[..n], &mut out[..n]);
                        for o in &out[..n] {
                            sum = sum.wrapping_mul(31).wrapping_add(o.unwrap_or(-1));
                        }
                        k0 += n as i64;
                    }
                }
            }
            #[cfg(feature = "columns")]
            "columns" => {
                // Program::offsets_columns, one call per row: the row's
                // coordinates as two columns, the offsets as integers.
                let ks: Vec<i64> = (0..black_box(c.cols)).collect();
                let (mut ms, mut out, mut valid) =
                    (vec![0; ks.len()], vec![0; ks.len()], vec![0u64; ks.len().div_ceil(64)]);
                for m in 0..black_box(c.rows) {
                    ms.fill(m);
                    black_box(&p).offsets_columns(&[&ms, &ks], &mut out, &mut valid);
                    for (k, &o) in out.iter().enumerate() {
                        let ok = valid[k / 64] >> (k % 64) & 1 == 1;
                        sum = sum.wrapping_mul(31).wrapping_add(if ok { o } else { -1 });
                    }
                }
            }
            "move" => {
                for m in 0..black_box(c.rows) {
                    let mut coord = Coordinate::new(&d, &[m, 0]);
                    sum = sum.wrapping_mul(31).wrapping_add(coord.offset());
                    for _ in 1..black_box(c.cols) {
                        coord.move_by(black_box(&d), &[0, 1]);
                        sum = sum.wrapping_mul(31).wrapping_add(coord.offset());
                    }
                }
            }
            _ => return Err(format!("no variant {variant}")),
        }
    }
    Ok(sum)
}

fn run(args: &[String]) -> Result<String, String> {
    let reps = |i: usize| -> Result<u64, String> {
        args.get(i).ok_or("missing reps")?.parse::<u64>().map_err(|e| e.to_string())
    };
    match args.first().map(String::as_str) {
        Some("none") => Ok("0".into()),
        Some("offsets") => {
            let case = args.get(1).ok_or("missing case")?;
            let variant = args.get(2).ok_or("missing variant")?;
            Ok(offsets(case, variant, reps(3)?)?.to_string())
        }
        Some("analyze") => {
            let (l, p) =
                (workloads::layouts().map_err(|e| e.to_string())?, workloads::patterns().map_err(|e| e.to_string())?);
            let mut total = (0, 0);
            for _ in 0..reps(1)? {
                let (a, b) = workloads::analyze_all(black_box(&l), &p).map_err(|e| e.to_string())?;
                total = (total.0 + a, total.1 + b);
            }
            Ok(format!("{} lane accesses, {} cycles", total.0, total.1))
        }
        Some("search") => {
            let name = args.get(2).map_or("gfx942-128x64", String::as_str);
            let p = workloads::problem_named(name).map_err(|e| e.to_string())?;
            let mut n = 0;
            for _ in 0..reps(1)? {
                n += workloads::run_search(black_box(&p)).map_err(|e| e.to_string())?.evaluated;
            }
            Ok(format!("{n} candidates"))
        }
        _ => {
            Err("usage: icount none | offsets <case> <variant> <reps> | analyze <reps> | search <reps> [problem]"
                .into())
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(s) => println!("{s}"),
        Err(e) => {
            eprintln!("icount: {e}");
            std::process::exit(2);
        }
    }
}
