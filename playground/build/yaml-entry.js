// esbuild entry for playground/vendor/yaml.js (built by `make
// playground-build`, never committed): the `yaml` package (eemeli/yaml),
// as one local ES module so that no asset comes from a CDN.
export { Document, visit, parseDocument, parseAllDocuments, isMap, isSeq, isPair, isScalar } from 'yaml';
