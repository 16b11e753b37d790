// A chain written once whose compile-time lengths CK refuses: the xor's
// modulus 6 is no power of two. The typed builder fails the build.
cktile_core::descriptor_chain! {
    pub type Xored<A, B>;
    pub fn make_xored;
    pub const fn xored;
    packed((A, B)) | transform(xor((A, B)) on [0, 1] -> [0, 1])
}

fn main() {
    use cktile_core::Number;
    let _ = make_xored(Number::<8>, Number::<6>);
    // The runtime builder refuses the same lengths with an error value.
    assert!(xored(8, 6).is_err());
}
