// descriptor_chain! names the transform it does not spell, and what it spells.
cktile_core::descriptor_chain! {
    pub type Swizzled<L>;
    pub fn make_swizzled;
    pub const fn swizzled;
    packed((L)) | transform(swizzle(L) on [0] -> [0])
}

fn main() {}
