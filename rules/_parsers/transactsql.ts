// A static import, so the bundler interops the CommonJS build here, not at a dynamic import.
export * as parser from "node-sql-parser/build/transactsql.js";
