fn main() {
    use cktile::analyzer::{Pattern, arch};
    let p = cktile::search::Problem::new(128, 64, 2, arch::GFX942)
        .write(Pattern::from_access("ds_write_b128:row").unwrap())
        .read(Pattern::from_access("mfma16x16x16:a").unwrap());
    let t = std::time::Instant::now();
    let r = cktile::search::search(&p).unwrap();
    println!("{:?}", t.elapsed());
    println!("min {} naive {} best {:?}", r.minimum_cycles(), r.naive.cycles, r.best());
    for f in &r.families {
        println!("{:?} {} {} {}", f.family, f.members, f.valid, f.note);
    }
    println!("optimal {}", r.optimal.len());
    for c in r.optimal.iter().take(50) {
        println!("  {} {} {}", c.entry, c.cycles, c.transforms);
    }
    println!("front {:?}", r.front.iter().map(|c| (&c.entry, c.cycles, c.extra_bytes)).collect::<Vec<_>>());
    println!("pattern_best {:?} stuck {}", r.pattern_best, r.stuck.len());
}
