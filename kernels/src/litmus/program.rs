//! Every litmus test's kernel body, generated from its definition: the roles
//! and accesses that `layout/src/litmus/suite/<test>.rs` lists as data.
//!
//! [`run`] plays the test's roles in order and issues each access with the
//! variant's instruction ([`Access`]). Each kernel names its test, so the
//! definition is a constant there: every role and access below is a call
//! with a constant index, and after inlining each folds to its access or to
//! nothing. What reaches PTX is the test's straight line of accesses, with
//! nothing of the definition left in memory. The PTX tests hold every kernel
//! to that: the order and qualifiers of its test accesses, and its
//! fingerprint.

use layout::litmus::{Op, REGISTERS, Test};

use super::access::Access;
use super::env::Env;

/// The most roles a test of the suite has (IRIW's four), and the most
/// accesses one role has (two): [`run`] is written out for these, so that
/// it needs no loop for LLVM to unroll.
const MAX_ROLES: usize = 4;
const MAX_OPS: usize = 2;

// Every test of the suite fits the body below; a test that does not is a
// compile error here, not a kernel that skips its last access.
const _: () = {
    let mut t = 0;
    while t < Test::ALL.len() {
        let roles = Test::ALL[t].roles();
        assert!(roles.len() <= MAX_ROLES, "a litmus test has more roles than `program::run` plays");
        let mut role = 0;
        while role < roles.len() {
            assert!(roles[role].ops.len() <= MAX_OPS, "a litmus role has more accesses than `program::run` issues");
            role += 1;
        }
        t += 1;
    }
};

/// One instance's roles of `test`, each for its own instance, as its
/// definition lists them:
///
/// - each role's locations are computed first, then its accesses are issued
///   in program order, with [`Access::fence`] between consecutive ones;
/// - a role's flag accesses ([`layout::litmus::Role::is_flag`]) go through
///   [`Access::store_flag`] and [`Access::load_flag`], the others through
///   [`Access::store`] and [`Access::load`];
/// - a second access of a role to the same location goes through
///   [`Env::again`], so that `ptxas` cannot merge two loads into one, forward
///   a store to a load, or drop the first of two stores;
/// - [`Env::between_roles`] separates the roles, and each load's register is
///   recorded once every role has run.
///
/// The roles and accesses are calls with constant indices, not the
/// iterations of a loop: LLVM does not fully unroll a loop with a body this
/// long, and a kernel that loops reads its definition from global memory at
/// run time, with a bounds check per access.
///
/// # Safety
///
/// `env` must come from [`Env::enter`] for `test`.
#[inline(always)]
pub unsafe fn run<A: Access>(env: &Env, test: Test) {
    let mut registers = [0u32; REGISTERS];
    // SAFETY: forwarded from this function's contract, for each role.
    unsafe {
        play::<A>(env, test, 0, &mut registers);
        play::<A>(env, test, 1, &mut registers);
        play::<A>(env, test, 2, &mut registers);
        play::<A>(env, test, 3, &mut registers);
        record(env, test, 0, &registers);
        record(env, test, 1, &registers);
        record(env, test, 2, &registers);
        record(env, test, 3, &registers);
    }
}

/// Role `role` of `test`, if it has one: its locations, then its accesses
/// (see [`run`]), after [`Env::between_roles`] unless it is the first.
///
/// # Safety
///
/// As [`run`].
#[inline(always)]
unsafe fn play<A: Access>(env: &Env, test: Test, role: usize, registers: &mut [u32; REGISTERS]) {
    let roles = test.roles();
    if role >= roles.len() {
        return;
    }
    if role > 0 {
        env.between_roles();
    }
    // The addresses in the order of their locations (x, y, z), whatever the
    // order of the accesses. `ptxas` schedules the address arithmetic
    // differently for the two orders, so this order is part of each kernel's
    // machine code, and its fingerprint.
    let ops = roles[role].ops;
    let addresses = if ops.len() == 2 && (ops[1].location() as u8) < (ops[0].location() as u8) {
        let second = address(env, test, role, 1);
        [address(env, test, role, 0), second]
    } else {
        [address(env, test, role, 0), address(env, test, role, 1)]
    };
    // SAFETY: forwarded from the caller.
    unsafe {
        issue::<A>(env, test, role, 0, addresses[0], registers);
        issue::<A>(env, test, role, 1, addresses[1], registers);
    }
}

/// Where access `i` of `role` goes: its location of the role's instance.
/// Null where the role has no access `i`.
#[inline(always)]
fn address(env: &Env, test: Test, role: usize, i: usize) -> *mut u32 {
    match test.roles()[role].ops.get(i) {
        Some(op) => env.at(role as u32, op.location()),
        None => core::ptr::null_mut(),
    }
}

/// Access `i` of `role`, if the role has one, after [`Access::fence`] unless
/// it is the role's first.
///
/// # Safety
///
/// As [`run`]; `address` from [`address`] for the same access.
#[inline(always)]
unsafe fn issue<A: Access>(
    env: &Env,
    test: Test,
    role: usize,
    i: usize,
    address: *mut u32,
    registers: &mut [u32; REGISTERS],
) {
    let r = &test.roles()[role];
    if i >= r.ops.len() {
        return;
    }
    if i > 0 {
        A::fence();
    }
    // A second access to the first access's location goes through `again`,
    // offset just before it is issued.
    let address = if i > 0 && r.ops[0].location() == r.ops[i].location() { env.again(address) } else { address };
    let flag = r.is_flag(i);
    // SAFETY: `address` is one of this instance's locations, in the global
    // window, as `Env::at` and `Env::again` promise.
    unsafe {
        match r.ops[i] {
            Op::Store(_, value) if flag => A::store_flag(address, value),
            Op::Store(_, value) => A::store(address, value),
            Op::Load(_, reg) if flag => registers[reg as usize] = A::load_flag(address),
            Op::Load(_, reg) => registers[reg as usize] = A::load(address),
        }
    }
}

/// Records the registers `role` of `test` loaded, if it has that role.
///
/// # Safety
///
/// The results buffer holds every instance's registers, as `Env::enter`'s
/// caller guaranteed.
#[inline(always)]
unsafe fn record(env: &Env, test: Test, role: usize, registers: &[u32; REGISTERS]) {
    let roles = test.roles();
    if role >= roles.len() {
        return;
    }
    for op in roles[role].ops {
        if let Op::Load(_, r) = *op {
            // SAFETY: forwarded from the caller.
            unsafe { env.record(role as u32, r, registers[r as usize]) };
        }
    }
}
