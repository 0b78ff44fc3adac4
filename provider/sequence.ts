/** Orders of lists: the fewest moves that turn one order into another (`SiteStructureOrder`'s plan, `diff`'s "moved"). */

/** Indexes (into `seq`) of one longest strictly increasing subsequence: the items that need not move. */
export function longestIncreasing(seq: readonly number[]): Set<number> {
  const tails: number[] = []; // tails[k] = index in seq of the smallest tail of an increasing run of length k+1
  const prev: number[] = new Array<number>(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]!]! < seq[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const keep = new Set<number>();
  for (let i = tails.length > 0 ? tails[tails.length - 1]! : -1; i !== -1; i = prev[i]!) keep.add(i);
  return keep;
}
