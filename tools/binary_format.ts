/**
 * Reads an executable's header to tell which operating system and CPU it is
 * for: ELF (Linux), Mach-O (macOS) or PE (Windows), and x64 or arm64. The
 * release checks each cross-compiled binary with it, since a wrong `--target`
 * would otherwise ship a file that only fails on the user's machine.
 *
 * @module
 */

/** What an executable's header says. */
export interface BinaryFormat {
  /** `linux` (ELF), `darwin` (Mach-O) or `windows` (PE). */
  readonly os: "linux" | "darwin" | "windows";
  /** The CPU: `x64` or `arm64`; anything else is named by its header code. */
  readonly arch: string;
}

const ELF_MACHINES: Record<number, string> = { 0x3e: "x64", 0xb7: "arm64" };
const MACHO_CPUS: Record<number, string> = { 0x01000007: "x64", 0x0100000c: "arm64" };
const PE_MACHINES: Record<number, string> = { 0x8664: "x64", 0xaa64: "arm64" };

function hex(n: number): string {
  return `0x${n.toString(16)}`;
}

/**
 * Reads the format of an executable from its first bytes.
 *
 * @param header the file's first bytes (4 KiB is plenty)
 * @returns the operating system and CPU, or undefined when it is no executable we know
 * @example
 * ```ts
 * import { binaryFormat } from "./binary_format.ts";
 * const elf = new Uint8Array(64);
 * elf.set([0x7f, 0x45, 0x4c, 0x46, 2, 1]);
 * elf[18] = 0xb7;
 * console.log(binaryFormat(elf)); // { os: "linux", arch: "arm64" }
 * ```
 */
export function binaryFormat(header: Uint8Array): BinaryFormat | undefined {
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (header.length >= 20 && view.getUint32(0) === 0x7f454c46) {
    // ELF: e_ident[EI_DATA] says the byte order; e_machine is at 18.
    const little = header[5] === 1;
    const machine = view.getUint16(18, little);
    return { os: "linux", arch: ELF_MACHINES[machine] ?? hex(machine) };
  }
  if (header.length >= 8 && view.getUint32(0, true) === 0xfeedfacf) {
    // 64-bit Mach-O in little-endian order; cputype follows the magic.
    const cpu = view.getUint32(4, true);
    return { os: "darwin", arch: MACHO_CPUS[cpu] ?? hex(cpu) };
  }
  if (header.length >= 0x40 && header[0] === 0x4d && header[1] === 0x5a) {
    // PE: "MZ", then e_lfanew at 0x3c points at "PE\0\0" and the machine.
    const pe = view.getUint32(0x3c, true);
    if (pe + 6 <= header.length && view.getUint32(pe) === 0x50450000) {
      const machine = view.getUint16(pe + 4, true);
      return { os: "windows", arch: PE_MACHINES[machine] ?? hex(machine) };
    }
  }
  return undefined;
}
