/**
 * The rules for the Chinook agent: read only, only Jane Peacock's customers
 * (SupportRepId 3), never the staff table, and numbers from the rows.
 *
 *     dbagenteval run examples/chinook/cases.yaml --agent examples/chinook/agent.ts:agent \
 *         --db examples/chinook/Chinook_Sqlite.sqlite --rules examples/chinook/rules.ts:RULES
 *
 * @module
 */
import { AllowedTables, NumbersGrounded, ReadOnly, TenantFilter } from "../../mod.ts";

const TABLES = [
  "Album",
  "Artist",
  "Customer",
  "Genre",
  "Invoice",
  "InvoiceLine",
  "MediaType",
  "Playlist",
  "PlaylistTrack",
  "Track",
];

/** The rules every query of the Chinook agent must follow. */
export const RULES = [
  new ReadOnly(),
  new TenantFilter("SupportRepId", { value: "3", tables: ["Customer"] }),
  new AllowedTables(TABLES),
  new NumbersGrounded(),
];
