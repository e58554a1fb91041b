## Arty A7-100T (XC7A100T-1CSG324C) pins for the smsync board top (fpga/: `arty_top`).
## Pin sites from Digilent's Arty-A7-100-Master.xdc.

## 100 MHz oscillator. The board top (`smsync gen --board arty`) runs the sync unit on
## CLK100MHZ / 4 = 25 MHz from a flip-flop divider (rust-hdl has no MMCM primitive), below the
## fpga-small Fmax estimate (docs/FPGA.md; the xilinx-7 numbers of `smsync synth` are yosys
## estimates without timing, so check Vivado's timing report). The register name below is the
## divider's bit 1 as rust-hdl names it (`divider$q`); adjust if your synthesis renames it.
set_property -dict { PACKAGE_PIN E3 IOSTANDARD LVCMOS33 } [get_ports { CLK100MHZ }];
create_clock -add -name sys_clk_pin -period 10.00 -waveform {0 5} [get_ports { CLK100MHZ }];
create_generated_clock -name core_clk -source [get_ports { CLK100MHZ }] -divide_by 4 [get_pins -hierarchical -filter {NAME =~ *divider*q_reg[1]/Q}];

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
