/**
 * The one module that imports the JMESPath implementation, loaded only by `--query`.
 *
 * @module
 */
export { compile, TreeInterpreter } from "npm:@jmespath-community/jmespath@1.3.0";
