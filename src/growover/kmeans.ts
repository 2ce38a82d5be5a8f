/**
 * Seeded k-means (k-means++ seeding, then Lloyd's iterations) over embedding vectors, and the
 * GrowOVER choice of one paragraph per cluster: semantically different paragraphs, so the questions
 * of an article do not repeat one another. The same vectors and seed give the same clusters.
 */
import { derivedRandom, type SeededRandom } from '../random.js';

const MAX_ITERATIONS = 50;

/** The cluster of each vector, 0 .. k-1 (fewer clusters when there are fewer distinct vectors). */
export function kMeans(vectors: readonly Float32Array[], k: number, random: SeededRandom): number[] {
  if (vectors.length <= k) return vectors.map((_, i) => i);
  const centroids = seedCentroids(vectors, k, random);
  let assignment = vectors.map(() => -1);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const next = vectors.map((vector) => nearest(vector, centroids));
    if (next.every((cluster, i) => cluster === assignment[i])) break;
    assignment = next;
    centroids.forEach((_, cluster) => {
      const members = vectors.filter((_, i) => assignment[i] === cluster);
      // An emptied cluster keeps its centroid rather than collapsing onto another.
      if (members.length > 0) centroids[cluster] = mean(members);
    });
  }
  return assignment;
}

/**
 * Up to k items, one drawn at random from each cluster of their vectors, in item order. With k or
 * fewer items, all of them.
 */
export function onePerCluster<T>(items: readonly T[], vectors: readonly Float32Array[], k: number, seed: number | string, label: string): T[] {
  if (items.length <= k) return items.slice();
  const assignment = kMeans(vectors, k, derivedRandom(seed, `kmeans:${label}`));
  const draw = derivedRandom(seed, `pick:${label}`);
  const chosen = new Set<number>();
  for (let cluster = 0; cluster < k; cluster++) {
    const members = assignment.flatMap((c, i) => (c === cluster ? [i] : []));
    if (members.length > 0) chosen.add(draw.pick(members));
  }
  return [...chosen].sort((a, b) => a - b).map((i) => items[i] as T);
}

/**
 * The component-wise mean of vectors of one length (a paragraph's sentence embeddings → the
 * paragraph's); `vectors` must not be empty.
 *
 * @example mean([new Float32Array([0, 2]), new Float32Array([2, 4])]) // Float32Array [1, 3]
 */
export function mean(vectors: readonly Float32Array[]): Float32Array {
  const sum = new Float32Array((vectors[0] as Float32Array).length);
  for (const vector of vectors) for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] as number) + (vector[d] as number);
  for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] as number) / vectors.length;
  return sum;
}

/** k-means++: each further centroid drawn with probability proportional to its squared distance from the nearest chosen one. */
function seedCentroids(vectors: readonly Float32Array[], k: number, random: SeededRandom): Float32Array[] {
  const centroids = [vectors[Math.floor(random.next() * vectors.length)] as Float32Array];
  while (centroids.length < k) {
    const weights = vectors.map((vector) => Math.min(...centroids.map((centroid) => squaredDistance(vector, centroid))));
    const total = weights.reduce((a, b) => a + b, 0);
    if (total === 0) break;
    let target = random.next() * total;
    let index = weights.findIndex((weight) => (target -= weight) < 0);
    if (index < 0) index = vectors.length - 1;
    centroids.push(vectors[index] as Float32Array);
  }
  return centroids.map((centroid) => Float32Array.from(centroid));
}

function nearest(vector: Float32Array, centroids: readonly Float32Array[]): number {
  let best = 0;
  let bestDistance = Infinity;
  centroids.forEach((centroid, cluster) => {
    const distance = squaredDistance(vector, centroid);
    if (distance < bestDistance) [best, bestDistance] = [cluster, distance];
  });
  return best;
}

function squaredDistance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += ((a[d] as number) - (b[d] as number)) ** 2;
  return sum;
}
