/**
 * A long `import_entities_from_csv` call for tests of streaming, cancellation and resumption: a CSV of
 * `path,title` rows in a file root, and the tool call that imports it in small batches.
 *
 * @module
 */

/** The tool call: `assets.csv` of the file root, as DataSet entities, 20 rows a batch. */
export const ASSET_IMPORT = {
  name: "import_entities_from_csv",
  arguments: {
    file_path: "assets.csv",
    entity_type: "DataSet",
    column_mapping: { path: "qualifiedName", title: "name" },
    batch_size: 20,
  },
};

/** Writes `assets.csv` in `root`: `rows` rows, qualified names `${prefix}0`, `${prefix}1`, … */
export async function writeAssetsCsv(root: string, rows: number, prefix: string): Promise<void> {
  const lines = ["path,title", ...Array.from({ length: rows }, (_, i) => `${prefix}${i},Asset ${i}`)];
  await Deno.writeTextFile(`${root}/assets.csv`, lines.join("\n") + "\n");
}
