//! `cp.async.bulk` (non-tensor) and `st.bulk`: the bytes arrive at once, the
//! mbarrier's transaction count is completed, `st.bulk` zeroes.

use ptx_emu::{Buffer, Dim3, Emulator, KernelArg, LaunchConfig};

#[test]
fn bulk_copies_complete_the_mbarrier_and_st_bulk_zeroes() {
    let ptx = ".version 8.6\n.target sm_100\n.address_size 64\n\
        .shared .align 128 .b8 buf[1024];\n.shared .align 8 .b64 bar;\n\
        .visible .entry k(.param .u64 in, .param .u64 out)\n{\n\
        .reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n\
        ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\n\
        mov.u32 %r1, buf;\nmov.u32 %r2, bar;\nmov.u32 %r3, %tid.x;\n\
        setp.eq.u32 %p1, %r3, 0;\n\
        @%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\n\
        bar.sync 0;\n\
        @!%p1 bra WAIT;\n\
        mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 512;\n\
        cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 256, [%r2];\n\
        cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r1+256], [%rd1+256], 256, [%r2], %rd1;\n\
        WAIT:\n\
        mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], 0;\n\
        @!%p2 bra WAIT;\n\
        @%p1 st.bulk.weak.shared::cta [%r1+128], 64, 0;\n\
        bar.sync 0;\n\
        @%p1 cp.async.bulk.global.shared::cta.bulk_group [%rd2], [%r1], 512;\n\
        cp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;\nret;\n}\n";
    let input: Vec<u32> = (0..128).map(|i| i * 3 + 1).collect();
    let mut emu = Emulator::from_ptx(ptx).unwrap();
    let mut args = [
        KernelArg::Buffer(Buffer::from_slice(&input)),
        KernelArg::Buffer(Buffer::from_slice(&[0u32; 128])),
    ];
    let cfg = LaunchConfig {
        grid: Dim3::x(1),
        block: Dim3::x(64),
        dynamic_smem: 0,
    };
    emu.launch("k", cfg, &mut args).unwrap();
    let out: Vec<u32> = args[1].buffer().unwrap().to_vec();
    for i in 0..128 {
        // Bytes 128..192 (words 32..48) were zeroed by st.bulk.
        let want = if (32..48).contains(&i) { 0 } else { input[i] };
        assert_eq!(out[i], want, "word {i}");
    }
}
