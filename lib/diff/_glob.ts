/**
 * File-name globs for `dbPatterns`: `*` and `?` within a name, `[...]`
 * classes, and `**` across folders.
 *
 * @module
 */

/**
 * A matcher for one glob. A glob without `/` is matched against the file's
 * name (`*.db`); one with `/` against its path relative to the searched
 * folder (`**\/data/*.db`, where a leading `**\/` also matches no folder).
 *
 * @param glob the pattern
 * @returns a test of a relative path (with `/` separators)
 */
export function globMatcher(glob: string): (relativePath: string) => boolean {
  const onPath = glob.includes("/");
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === "*" && glob[i + 1] === "*") {
      if (glob[i + 2] === "/") {
        re += "(?:.*/)?";
        i += 2;
      } else {
        re += ".*";
        i += 1;
      }
    } else if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else if (ch === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) re += "\\[";
      else {
        re += `[${glob.slice(i + 1, end).replace(/^!/, "^").replaceAll("\\", "\\\\")}]`;
        i = end;
      }
    } else re += ch.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  const regex = new RegExp(`^${re}$`);
  return (relativePath) => {
    const name = relativePath.slice(relativePath.lastIndexOf("/") + 1);
    return regex.test(onPath ? relativePath : name);
  };
}
