## Arty A7-100T (XC7A100T-1CSG324C) pins for the smsync board top (fpga/: `arty_top`).
## Pin sites from Digilent's Arty-A7-100-Master.xdc.

## 100 MHz oscillator. It feeds the PLL (PLLE2_BASE, instance `pll/pll_i`, CLKOUT0 through a
## BUFG), whose output is the core clock at the config's `core_clock_mhz` (or `--core-mhz`).
## Vivado derives that clock from the PLL's attributes; the copy that `smsync gen --board arty`
## writes ends with a generated `create_generated_clock -name core_clk ...` on CLKOUT0 stating
## it (multiply/divide = CLKFBOUT_MULT / (DIVCLK_DIVIDE * CLKOUT0_DIVIDE)). The xilinx-7
## numbers of `smsync synth` are yosys estimates without timing: check Vivado's timing report.
set_property -dict { PACKAGE_PIN E3 IOSTANDARD LVCMOS33 } [get_ports { CLK100MHZ }];
create_clock -add -name sys_clk_pin -period 10.00 -waveform {0 5} [get_ports { CLK100MHZ }];

## USB-UART (names from the FPGA's side).
set_property -dict { PACKAGE_PIN A9  IOSTANDARD LVCMOS33 } [get_ports { uart_txd_in }];   # host -> FPGA
set_property -dict { PACKAGE_PIN D10 IOSTANDARD LVCMOS33 } [get_ports { uart_rxd_out }];  # FPGA -> host

## Reset: the red RESET button (ck_rst, active low).
set_property -dict { PACKAGE_PIN C2 IOSTANDARD LVCMOS33 } [get_ports { ck_rst }];

## Status LEDs LD4..LD6: heartbeat, host command in progress, error since the last RESET command.
set_property -dict { PACKAGE_PIN H5  IOSTANDARD LVCMOS33 } [get_ports { led[0] }];
set_property -dict { PACKAGE_PIN J5  IOSTANDARD LVCMOS33 } [get_ports { led[1] }];
set_property -dict { PACKAGE_PIN T9  IOSTANDARD LVCMOS33 } [get_ports { led[2] }];

set_property CONFIG_VOLTAGE 3.3 [current_design];
set_property CFGBVS VCCO [current_design];
