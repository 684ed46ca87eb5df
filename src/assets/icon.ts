// The 512x512 PNG server icon (a session timeline with a breakout), drawn and PNG-encoded once with node:zlib.
import { deflateSync } from 'node:zlib';

export const ICON_SIZE = 512;

type Rgba = readonly [number, number, number, number];

interface RoundedRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  r: number;
  color: Rgba;
}

const TEAL: Rgba = [15, 118, 110, 255];
const WHITE: Rgba = [255, 255, 255, 255];
const AMBER: Rgba = [253, 230, 138, 255];

/** Painted in order: background tile, a plenary block, two parallel breakout lanes, a closing block. */
const SHAPES: readonly RoundedRect[] = [
  { x0: 0, y0: 0, x1: 512, y1: 512, r: 96, color: TEAL },
  { x0: 104, y0: 128, x1: 408, y1: 184, r: 28, color: WHITE },
  { x0: 104, y0: 228, x1: 248, y1: 284, r: 28, color: AMBER },
  { x0: 264, y0: 228, x1: 408, y1: 284, r: 28, color: AMBER },
  { x0: 104, y0: 328, x1: 336, y1: 384, r: 28, color: WHITE },
];

function inside(s: RoundedRect, x: number, y: number): boolean {
  if (x < s.x0 || x >= s.x1 || y < s.y0 || y >= s.y1) return false;
  const cx = Math.min(Math.max(x, s.x0 + s.r), s.x1 - s.r);
  const cy = Math.min(Math.max(y, s.y0 + s.r), s.y1 - s.r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= s.r * s.r;
}

function colorAt(x: number, y: number): Rgba | null {
  let color: Rgba | null = null;
  for (const shape of SHAPES) if (inside(shape, x, y)) color = shape.color;
  return color;
}

/** The pixel's colour when its four corners agree (no edge crosses it; shapes are convex), else undefined. */
function flatColor(x: number, y: number): Rgba | null | undefined {
  const c = colorAt(x, y);
  return colorAt(x + 1, y) === c && colorAt(x, y + 1) === c && colorAt(x + 1, y + 1) === c ? c : undefined;
}

/** RGBA scanlines with PNG filter byte 0; 4x4 supersampling smooths the rounded edges. */
function drawScanlines(): Buffer {
  const stride = ICON_SIZE * 4 + 1;
  const out = Buffer.alloc(stride * ICON_SIZE);
  const samples = 4;
  for (let y = 0; y < ICON_SIZE; y++) {
    for (let x = 0; x < ICON_SIZE; x++) {
      const o = y * stride + 1 + x * 4;
      const flat = flatColor(x, y);
      if (flat !== undefined) {
        out.set(flat === null ? [0, 0, 0, 0] : flat, o);
        continue;
      }
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const px = x + (sx + 0.5) / samples;
          const py = y + (sy + 0.5) / samples;
          const color = colorAt(px, py);
          if (color === null) continue;
          // Premultiplied accumulation so transparent corner samples do not darken the edge.
          r += color[0] * color[3]; g += color[1] * color[3]; b += color[2] * color[3]; a += color[3];
        }
      }
      out[o] = a === 0 ? 0 : Math.round(r / a);
      out[o + 1] = a === 0 ? 0 : Math.round(g / a);
      out[o + 2] = a === 0 ? 0 : Math.round(b / a);
      out[o + 3] = Math.round(a / (samples * samples));
    }
  }
  return out;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function encodePng(): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(ICON_SIZE, 0);
  header.writeUInt32BE(ICON_SIZE, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(drawScanlines(), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let cached: Uint8Array | undefined;

/** The icon's PNG bytes (drawn on first use, then reused). */
export function iconPng(): Uint8Array {
  cached ??= encodePng();
  return cached;
}
