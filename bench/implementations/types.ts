// The shape every benchmarked codec implementation exports (pako-style adapters).

export interface CodecImplementation {
  readonly name: string;
  compress(text: string): string;
  decompress(payload: string): string;
}
