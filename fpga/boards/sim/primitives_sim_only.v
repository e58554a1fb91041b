// SIMULATION / LINT ONLY. Never synthesise this file: yosys (synth_ecp5) and Vivado supply the
// real EHXPLLL, PLLE2_BASE and BUFG cells. smsync appends it to a board top's Verilog only for
// simulation and lint (the UART-sim cosim backend, the board-top lint; fpga/boards/src/pll.rs).
//
// Behaviour: the PLL output is the input clock itself (the simulated board is clocked once per
// core cycle, so the frequency ratio does not matter there) and LOCK rises after 8 input
// cycles, so the board's reset waits for it as on hardware. Only the ports the board tops
// connect are declared.

/* verilator lint_off DECLFILENAME */
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off MULTITOP */
// The power-up value of lock_count stands for the FPGA's configured state.
/* verilator lint_off PROCASSINIT */

module EHXPLLL (
    input CLKI, input CLKFB, input RST, input STDBY, input PLLWAKESYNC,
    input PHASESEL0, input PHASESEL1, input PHASEDIR, input PHASESTEP, input PHASELOADREG,
    input ENCLKOP, input ENCLKOS, input ENCLKOS2, input ENCLKOS3,
    output CLKOP, output LOCK
);
    parameter CLKI_DIV = 1;
    parameter CLKFB_DIV = 1;
    parameter CLKOP_DIV = 8;
    parameter CLKOP_CPHASE = 0;
    parameter CLKOP_FPHASE = 0;
    parameter FEEDBK_PATH = "CLKOP";
    parameter CLKOP_ENABLE = "ENABLED";
    parameter OUTDIVIDER_MUXA = "DIVA";
    parameter PLLRST_ENA = "DISABLED";
    parameter INTFB_WAKE = "DISABLED";
    parameter STDBY_ENABLE = "DISABLED";
    parameter DPHASE_SOURCE = "DISABLED";
    reg [3:0] lock_count = 4'd0;
    always @(posedge CLKI) begin
        if (RST) lock_count <= 4'd0;
        else if (!lock_count[3]) lock_count <= lock_count + 4'd1;
    end
    assign CLKOP = CLKI;
    assign LOCK = lock_count[3];
endmodule

module PLLE2_BASE (
    input CLKIN1, input CLKFBIN, input RST, input PWRDWN,
    output CLKFBOUT, output CLKOUT0, output LOCKED
);
    parameter BANDWIDTH = "OPTIMIZED";
    parameter STARTUP_WAIT = "FALSE";
    parameter real CLKIN1_PERIOD = 0.0;
    parameter DIVCLK_DIVIDE = 1;
    parameter CLKFBOUT_MULT = 5;
    parameter CLKOUT0_DIVIDE = 1;
    parameter real CLKOUT0_PHASE = 0.0;
    parameter real CLKOUT0_DUTY_CYCLE = 0.5;
    reg [3:0] lock_count = 4'd0;
    always @(posedge CLKIN1) begin
        if (RST || PWRDWN) lock_count <= 4'd0;
        else if (!lock_count[3]) lock_count <= lock_count + 4'd1;
    end
    assign CLKFBOUT = CLKIN1;
    assign CLKOUT0 = CLKIN1;
    assign LOCKED = lock_count[3];
endmodule

module BUFG (input I, output O);
    assign O = I;
endmodule

/* verilator lint_on PROCASSINIT */
/* verilator lint_on MULTITOP */
/* verilator lint_on UNUSEDSIGNAL */
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on DECLFILENAME */
