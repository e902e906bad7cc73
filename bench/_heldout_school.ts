/**
 * The held-out-style pairs on "school" (foreign keys, CHECKs, nullable
 * columns without a NULL today).
 *
 * @module
 */
import { type Cols, type HeldoutInstance, ins } from "./_heldout_types.ts";

export const BASE = [
  ins("department", { dept_id: 1, name: "Mathematics", building: "North" }),
  ins("teacher", { teacher_id: 1, name: "T1", dept_id: 1, salary: 50250 }),
  ins("course", { course_id: "MA101", title: "C", dept_id: 1, credits: 3, teacher_id: 1 }),
  ins("student", {
    student_id: 1,
    name: "S1",
    year: 1,
    advisor_id: 1,
    gpa: 3.01,
    email: "s1@school.edu",
  }),
].join(";\n");
export const student = (id: number, c: Cols = {}): string =>
  ins("student", {
    student_id: id,
    name: `S${id}`,
    year: 2,
    advisor_id: 1,
    gpa: 2.71,
    email: `s${id}@school.edu`,
    ...c,
  });
export const enroll = (s: number, c: Cols = {}): string =>
  ins("enrollment", { student_id: s, course_id: "MA101", term: "2024F", grade: 71, ...c });
export const teacher = (id: number, c: Cols = {}): string =>
  ins("teacher", { teacher_id: id, name: `T${id}`, dept_id: 1, salary: 50250, ...c });
export const course = (id: string, c: Cols = {}): string =>
  ins("course", { course_id: id, title: id, dept_id: 1, credits: 3, teacher_id: 1, ...c });

/** The school pairs. */
export function schoolPairs(): HeldoutInstance[] {
  const out: HeldoutInstance[] = [];
  const add = (i: Omit<HeldoutInstance, "db">): void => {
    out.push({ db: "school", ...i, proof: `${BASE};\n${i.proof}` });
  };
  for (const c of [60, 70, 80, 90]) {
    add({
      cls: "boundary",
      family: "> for >= on a grade",
      reference: `SELECT count(*) AS n FROM enrollment WHERE grade >= ${c}`,
      equivalent: `SELECT count(*) AS n FROM enrollment WHERE NOT (grade < ${c})`,
      nearMiss: `SELECT count(*) AS n FROM enrollment WHERE grade > ${c}`,
      proof: enroll(1, { grade: c }),
    });
    add({
      cls: "boundary",
      family: "<= for < in a join",
      reference:
        `SELECT s.name FROM student s JOIN enrollment e ON e.student_id = s.student_id WHERE e.course_id = 'MA111' AND e.grade < ${c}`,
      equivalent:
        `SELECT s.name FROM enrollment e JOIN student s ON s.student_id = e.student_id WHERE e.grade < ${c} AND e.course_id = 'MA111'`,
      nearMiss:
        `SELECT s.name FROM student s JOIN enrollment e ON e.student_id = s.student_id WHERE e.course_id = 'MA111' AND e.grade <= ${c}`,
      proof: `${course("MA111")};\n${enroll(1, { course_id: "MA111", grade: c })}`,
    });
  }
  for (const c of [2.5, 3, 3.5]) {
    add({
      cls: "boundary",
      family: ">= for > on a GPA",
      reference: `SELECT name FROM student WHERE gpa > ${c}`,
      equivalent: `SELECT name FROM student WHERE ${c} < gpa`,
      nearMiss: `SELECT name FROM student WHERE gpa >= ${c}`,
      proof: student(2, { gpa: c }),
    });
  }
  for (const c of [50000, 60000, 70000, 80000]) {
    add({
      cls: "boundary",
      family: "> for >= on a salary",
      reference: `SELECT name FROM teacher WHERE salary >= ${c} AND dept_id = 1`,
      equivalent: `SELECT t.name FROM teacher t WHERE t.dept_id = 1 AND NOT (t.salary < ${c})`,
      nearMiss: `SELECT name FROM teacher WHERE salary > ${c} AND dept_id = 1`,
      proof: teacher(2, { salary: c }),
    });
  }
  for (const k of [1, 15, 16]) {
    add({
      cls: "boundary",
      family: ">= for > on a count",
      reference: `SELECT student_id FROM enrollment GROUP BY student_id HAVING count(*) > ${k}`,
      equivalent:
        `SELECT student_id FROM student s WHERE (SELECT count(*) FROM enrollment e WHERE e.student_id = s.student_id) > ${k}`,
      nearMiss: `SELECT student_id FROM enrollment GROUP BY student_id HAVING count(*) >= ${k}`,
      proof: Array.from(
        { length: k },
        (_, i) => `${course(`X${i}`)};\n${enroll(1, { course_id: `X${i}` })}`,
      )
        .join(";\n"),
    });
  }
  for (const k of [28, 30, 32, 45, 50]) {
    add({
      cls: "boundary",
      family: "> for >= on a count",
      reference:
        `SELECT c.title FROM course c JOIN enrollment e ON e.course_id = c.course_id GROUP BY c.course_id HAVING count(*) >= ${k}`,
      equivalent:
        `SELECT title FROM course WHERE course_id IN (SELECT course_id FROM enrollment GROUP BY course_id HAVING ${k} <= count(*))`,
      nearMiss:
        `SELECT c.title FROM course c JOIN enrollment e ON e.course_id = c.course_id GROUP BY c.course_id HAVING count(*) > ${k}`,
      proof: Array.from({ length: k }, (_, i) => `${student(10 + i)};\n${enroll(10 + i)}`).join(
        ";\n",
      ),
    });
  }
  add({
    cls: "boundary",
    family: "> the day before for >=",
    reference: "SELECT count(*) AS n FROM teacher WHERE hired >= '2010-01-01'",
    equivalent: "SELECT count(*) AS n FROM teacher WHERE NOT (hired < '2010-01-01')",
    nearMiss: "SELECT count(*) AS n FROM teacher WHERE hired > '2009-12-31'",
    proof: teacher(2, { hired: "2009-12-31 12:00" }),
  });
  for (const c of ["MA101", "PH102", "HI103", "BI104", "MU105"]) {
    add({
      cls: "second value",
      family: "missing term filter",
      reference: `SELECT count(*) AS n FROM enrollment WHERE course_id = '${c}' AND term = '2024F'`,
      equivalent:
        `SELECT count(*) AS n FROM enrollment e WHERE e.term = '2024F' AND e.course_id = '${c}'`,
      nearMiss: `SELECT count(*) AS n FROM enrollment WHERE course_id = '${c}'`,
      proof: `${course(c).replace("INSERT", "INSERT OR IGNORE")};\n${
        enroll(1, { course_id: c, term: "2025S" })
      }`,
    });
  }
  for (const d of [1, 2, 3, 4, 5]) {
    add({
      cls: "second value",
      family: "the teacher's department for the course's",
      reference: `SELECT count(*) AS n FROM course WHERE dept_id = ${d}`,
      equivalent: `SELECT count(1) AS n FROM course c WHERE ${d} = c.dept_id`,
      nearMiss:
        `SELECT count(*) AS n FROM course c JOIN teacher t ON t.teacher_id = c.teacher_id WHERE t.dept_id = ${d}`,
      proof: `${ins("department", { dept_id: 9, name: "Other" })};\n${
        ins("department", { dept_id: d, name: `D${d}` }).replace("INSERT", "INSERT OR IGNORE")
      };\n${course("ZZ1", { dept_id: d === 1 ? 9 : d, teacher_id: 1 })}`,
    });
  }
  const notIn: [string, string, string][] = [
    ["advisor_id", "student", student(2, { advisor_id: null })],
    ["teacher_id", "course", course("ZZ1", { teacher_id: null })],
  ];
  for (const [col, inner, proof] of notIn) {
    add({
      cls: "null",
      family: "NOT IN for NOT EXISTS",
      reference:
        `SELECT t.name FROM teacher t WHERE NOT EXISTS (SELECT 1 FROM ${inner} x WHERE x.${col} = t.teacher_id)`,
      equivalent:
        `SELECT name FROM teacher WHERE teacher_id NOT IN (SELECT ${col} FROM ${inner} WHERE ${col} IS NOT NULL)`,
      nearMiss: `SELECT name FROM teacher WHERE teacher_id NOT IN (SELECT ${col} FROM ${inner})`,
      proof: `${teacher(2)};\n${proof}`,
    });
  }
  add({
    cls: "null",
    family: "NOT IN with a NULL outside",
    reference:
      "SELECT count(*) AS n FROM student s WHERE NOT EXISTS (SELECT 1 FROM teacher t WHERE t.teacher_id = s.advisor_id AND t.dept_id = 1)",
    equivalent:
      "SELECT count(*) AS n FROM student s LEFT JOIN teacher t ON t.teacher_id = s.advisor_id AND t.dept_id = 1 WHERE t.teacher_id IS NULL",
    nearMiss:
      "SELECT count(*) AS n FROM student WHERE advisor_id NOT IN (SELECT teacher_id FROM teacher WHERE dept_id = 1)",
    proof: student(2, { advisor_id: null }),
  });
  add({
    cls: "boundary",
    family: "<= for < inside NOT IN",
    reference:
      "SELECT count(*) AS n FROM student s WHERE NOT EXISTS (SELECT 1 FROM enrollment e WHERE e.student_id = s.student_id AND e.grade < 50)",
    equivalent:
      "SELECT count(*) AS n FROM student WHERE student_id NOT IN (SELECT student_id FROM enrollment WHERE grade < 50)",
    nearMiss:
      "SELECT count(*) AS n FROM student WHERE student_id NOT IN (SELECT student_id FROM enrollment WHERE grade <= 50)",
    proof: enroll(1, { grade: 50 }),
  });
  add({
    cls: "null",
    family: "sum/count(*) for AVG",
    reference: "SELECT course_id, round(avg(grade), 2) AS g FROM enrollment GROUP BY course_id",
    equivalent:
      "SELECT course_id, round(sum(grade) * 1.0 / count(grade), 2) AS g FROM enrollment GROUP BY course_id",
    nearMiss:
      "SELECT course_id, round(sum(grade) * 1.0 / count(*), 2) AS g FROM enrollment GROUP BY course_id",
    proof: `${enroll(1, { grade: 80 })};\n${student(2)};\n${enroll(2, { grade: null })}`,
  });
  for (const [t, col] of [["enrollment", "grade"], ["student", "email"], ["student", "gpa"]]) {
    add({
      cls: "null",
      family: "COUNT(col) for COUNT(*)",
      reference: `SELECT count(*) AS n FROM ${t}`,
      equivalent: `SELECT count(1) AS n FROM ${t}`,
      nearMiss: `SELECT count(${col}) AS n FROM ${t}`,
      proof: t === "student" ? student(2, { [col!]: null }) : enroll(1, { grade: null }),
    });
  }
  add({
    cls: "null",
    family: "<> losing the NULLs",
    reference: "SELECT count(*) AS n FROM student WHERE advisor_id IS NOT 5",
    equivalent: "SELECT count(*) AS n FROM student WHERE advisor_id <> 5 OR advisor_id IS NULL",
    nearMiss: "SELECT count(*) AS n FROM student WHERE advisor_id <> 5",
    proof: student(2, { advisor_id: null }),
  });
  const unions: [string, string, string][] = [
    ["name", "year = 1", "year = 4"],
    ["email", "gpa > 3.8", "gpa < 2.2"],
    ["name", "advisor_id = 2", "advisor_id = 7"],
  ];
  for (const [col, a, b] of unions) {
    add({
      cls: "duplicate",
      family: "UNION ALL for UNION",
      reference:
        `SELECT ${col} FROM student WHERE ${a} UNION SELECT ${col} FROM student WHERE ${b}`,
      equivalent: `SELECT DISTINCT ${col} FROM student WHERE ${a} OR ${b}`,
      nearMiss:
        `SELECT ${col} FROM student WHERE ${a} UNION ALL SELECT ${col} FROM student WHERE ${b}`,
      proof: col === "email"
        ? `${student(2, { gpa: 3.9, email: null })};\n${student(3, { gpa: 2.1, email: null })}`
        : `${teacher(2)};\n${teacher(7)};\n${
          student(2, { name: "Same", year: 1, advisor_id: 2 })
        };\n${student(3, { name: "Same", year: 4, advisor_id: 7 })}`,
    });
  }
  add({
    cls: "duplicate",
    family: "GROUP BY the name for the key",
    reference:
      "SELECT s.name, round(avg(e.grade), 2) AS g FROM student s JOIN enrollment e ON e.student_id = s.student_id GROUP BY s.student_id",
    equivalent:
      "SELECT s.name, round(avg(e.grade), 2) AS g FROM enrollment e JOIN student s ON s.student_id = e.student_id GROUP BY e.student_id",
    nearMiss:
      "SELECT s.name, round(avg(e.grade), 2) AS g FROM student s JOIN enrollment e ON e.student_id = s.student_id GROUP BY s.name",
    proof: `${student(2, { name: "S1" })};\n${enroll(1, { grade: 60 })};\n${
      enroll(2, { grade: 90 })
    }`,
  });
  add({
    cls: "duplicate",
    family: "GROUP BY the name for the key",
    reference:
      "SELECT t.name, count(*) AS n FROM course c JOIN teacher t ON t.teacher_id = c.teacher_id GROUP BY t.teacher_id",
    equivalent:
      "SELECT t.name, count(t.teacher_id) AS n FROM teacher t JOIN course c ON c.teacher_id = t.teacher_id GROUP BY c.teacher_id",
    nearMiss:
      "SELECT t.name, count(*) AS n FROM course c JOIN teacher t ON t.teacher_id = c.teacher_id GROUP BY t.name",
    proof: `${teacher(2, { name: "T1" })};\n${course("ZZ1", { teacher_id: 2 })}`,
  });
  add({
    cls: "duplicate",
    family: "DISTINCT dropped",
    reference: "SELECT DISTINCT building FROM department WHERE dept_id > 2",
    equivalent: "SELECT building FROM department WHERE dept_id > 2 GROUP BY building",
    nearMiss: "SELECT building FROM department WHERE dept_id > 2",
    proof: `${ins("department", { dept_id: 3, name: "A", building: "X" })};\n${
      ins("department", { dept_id: 4, name: "B", building: "X" })
    }`,
  });
  add({
    cls: "duplicate",
    family: "a join that repeats rows for IN",
    reference:
      "SELECT count(*) AS n FROM student WHERE student_id IN (SELECT student_id FROM enrollment WHERE course_id = 'MA101')",
    equivalent:
      "SELECT count(*) AS n FROM student s WHERE EXISTS (SELECT 1 FROM enrollment e WHERE e.student_id = s.student_id AND e.course_id = 'MA101')",
    nearMiss:
      "SELECT count(*) AS n FROM student s JOIN enrollment e ON e.student_id = s.student_id WHERE e.course_id = 'MA101'",
    proof: `${enroll(1)};\n${enroll(1, { term: "2025S" })}`,
  });
  add({
    cls: "other",
    family: "INNER for LEFT",
    reference:
      "SELECT d.name, count(t.teacher_id) AS n FROM department d LEFT JOIN teacher t ON t.dept_id = d.dept_id GROUP BY d.dept_id",
    equivalent:
      "SELECT d.name, (SELECT count(*) FROM teacher t WHERE t.dept_id = d.dept_id) AS n FROM department d",
    nearMiss:
      "SELECT d.name, count(*) AS n FROM department d JOIN teacher t ON t.dept_id = d.dept_id GROUP BY d.dept_id",
    proof: ins("department", { dept_id: 2, name: "Empty" }),
  });
  add({
    cls: "other",
    family: "3 * COUNT for SUM of credits",
    reference:
      "SELECT e.student_id, sum(c.credits) AS cr FROM enrollment e JOIN course c ON c.course_id = e.course_id GROUP BY e.student_id",
    equivalent:
      "SELECT e.student_id, total(c.credits) AS cr FROM course c JOIN enrollment e ON e.course_id = c.course_id GROUP BY e.student_id",
    nearMiss:
      "SELECT e.student_id, 3 * count(*) AS cr FROM enrollment e JOIN course c ON c.course_id = e.course_id GROUP BY e.student_id",
    proof: `${course("ZZ1", { credits: 4 })};\n${enroll(1, { course_id: "ZZ1" })}`,
  });
  add({
    cls: "other",
    family: "a suffix for the domain",
    reference: "SELECT count(*) AS n FROM student WHERE email LIKE '%@school.edu'",
    equivalent: "SELECT count(*) AS n FROM student WHERE email LIKE '%@SCHOOL.EDU'",
    nearMiss: "SELECT count(*) AS n FROM student WHERE email LIKE '%school.edu'",
    proof: student(2, { email: "x@oldschool.edu" }),
  });
  return out;
}
