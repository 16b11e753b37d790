//! Runs every generated-code probe pair of `cktile-checks` once and prints
//! the static descriptor's offset next to the hand-written one.

fn main() {
    for (name, (m, k), stat, hand) in cktile_checks::PAIRS {
        let (m, k) = std::hint::black_box((m, k));
        println!("{name}: static {} hand {}", stat(m, k), hand(m, k));
    }
    println!(
        "constant: static {} hand {}",
        cktile_checks::probe_constant_static(),
        cktile_checks::probe_constant_hand()
    );
}
