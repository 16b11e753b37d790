//! The scratch kind `reverse` (scripts/scratch-kind.sh), through the
//! library with nothing but its module and its line in the list of kinds:
//! the spec parser and printer, the descriptor, the compiled program, the
//! emitted C++ and the interval analysis take it as they take any kind,
//! and its typed form is in `typed` beside every other kind's.

use cktile::transforms::typed::{TypedTransform, make_reverse_transform};
use cktile::transforms::{Kind, MAX_DIMS, Number, Transform};

#[test]
fn the_scratch_kind_is_a_kind() {
    let kind = Kind::from_name("reverse").expect("listed");
    assert_eq!(Kind::ALL.last(), Some(&kind));
    assert_eq!(kind.signature().to_string(), "reverse(len)");
    let text = "naive((4,8),(8,1)) | transform(reverse(4) on [0] -> [0], pass_through(8) on [1] -> [1])";
    let d = cktile::spec::parse(text).unwrap();
    assert_eq!(cktile::spec::parse(&d.to_string()).unwrap(), d);
    let program = cktile::Program::of(&d);
    for r in 0..4 {
        for c in 0..8 {
            let offset = (3 - r) * 8 + c;
            assert_eq!(d.calculate_offset(&[r, c]), offset);
            assert_eq!(program.offset_if_valid(&[r, c]), Some(offset));
            assert_eq!(d.calculate_top_index(offset).unwrap().as_slice(), &[r, c]);
        }
    }
    let generated = cktile::codegen::generate_text(text, cktile::codegen::Lang::Cuda, Some("rev")).unwrap();
    assert!(generated.code.contains("rev_offset"), "{}", generated.code);
    assert!(Transform::reverse(0).is_err());
    let e = cktile::spec::parse("naive((4),(1)) | transform(reverse(4,1) on [0] -> [0])").unwrap_err();
    assert!(e.to_string().contains("reverse takes 1 argument"), "{e}");
    // The typed form: the runtime transform, and the same lower index.
    let typed = make_reverse_transform(Number::<4>);
    assert_eq!(typed.to_transform(), Transform::reverse(4));
    let mut up = [0; MAX_DIMS];
    up[0] = 1;
    assert_eq!(typed.lower(&up)[0], Transform::reverse(4).unwrap().calculate_lower(&up)[0]);
    assert_eq!(typed.lower(&up)[0], 2);
}
