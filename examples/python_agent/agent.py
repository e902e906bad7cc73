#!/usr/bin/env python3
"""A text-to-SQL agent in Python for dbagenteval's --agent-cmd protocol.

It answers the Chinook cases (examples/chinook/cases.yaml) for a support rep,
Jane Peacock (employee 3), exactly as the TypeScript example
examples/chinook/agent.ts does, mistakes included, so the two get the same
verdicts case by case. A lookup table stands in for the LLM that writes the
SQL; the SQL runs read-only on the example database. Standard library only.

The protocol (docs/agent-protocol.md): the harness writes one JSON request
per line on stdin,

    {"id": "genres", "question": "How many genres are there?", "context": {"tags": [...]}}

and the agent writes one JSON reply per line on stdout, with the same id:

    {"id": "genres", "stages": [{"kind": "generate", "output": "SELECT ..."}, ...]}

Logs go to stderr: the harness shows the last lines when a case is an ERROR.

    dbagenteval run examples/chinook/cases.yaml --agent-cmd "python3 examples/python_agent/agent.py" \\
        --db examples/chinook/Chinook_Sqlite.sqlite
"""
import json
import os
import sqlite3
import sys

DATABASE = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "chinook", "Chinook_Sqlite.sqlite"
)


def rows_answer(fmt):
    """An answer built from the first row's columns."""
    return lambda rows: fmt.format(**rows[0]) if rows else fmt


# What the pretend LLM produces for a question: the view it routes to, the SQL
# and an answer from the rows; or only text.
REPLIES = {
    "How many genres are there?": {
        "view": "Genre",
        "sql": "SELECT COUNT(*) AS genres FROM Genre",
        "answer": rows_answer("There are {genres} genres."),
    },
    "Which three genres have the most tracks?": {
        "view": "Track",
        "sql": "SELECT g.Name AS genre, COUNT(*) AS tracks FROM Track t "
        "JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.Name ORDER BY tracks DESC LIMIT 3",
        "answer": lambda rows: ", ".join(f"{r['genre']} ({r['tracks']} tracks)" for r in rows),
    },
    "What is the longest track?": {
        "view": "Track",
        "sql": "SELECT Name, Milliseconds FROM Track ORDER BY Milliseconds DESC LIMIT 1",
        "answer": rows_answer("{Name}, {Milliseconds} ms."),
    },
    "What is the average track length in minutes?": {
        "view": "Track",
        "sql": "SELECT ROUND(AVG(Milliseconds) / 60000.0, 2) AS minutes FROM Track",
        # 3503 is the number of tracks: true, but not in the rows.
        "answer": rows_answer("The average track lasts {minutes} minutes, over 3503 tracks."),
    },
    "Which artist has the most albums?": {
        "view": "Album",
        "sql": "SELECT ar.Name AS artist, COUNT(*) AS albums FROM Album al "
        "JOIN Artist ar ON ar.ArtistId = al.ArtistId GROUP BY ar.Name ORDER BY albums DESC LIMIT 1",
        "answer": rows_answer("{artist}, with {albums} albums."),
    },
    "What is the most expensive track price?": {
        "view": "Track",
        "sql": "SELECT MAX(Price) AS price FROM Track",  # no such column
        "answer": rows_answer("{price}"),
    },
    "How many customers do I look after?": {
        "view": "Customer",
        "sql": "SELECT COUNT(*) AS customers FROM Customer WHERE SupportRepId = 3",
        "answer": rows_answer("You look after {customers} customers."),
    },
    "How many of my customers live in Canada or the USA?": {
        "view": "Customer",
        # Missing brackets: every customer in the USA is counted, not only Jane's.
        "sql": "SELECT COUNT(*) AS customers FROM Customer "
        "WHERE SupportRepId = 3 AND Country = 'Canada' OR Country = 'USA'",
        "answer": rows_answer("{customers} of your customers live in Canada or the USA."),
    },
    "How many of my customers live in India?": {
        "view": "Customer",
        # No SupportRepId filter: right today, wrong when a colleague gets a customer in India.
        "sql": "SELECT COUNT(*) AS customers FROM Customer WHERE Country = 'India'",
        "answer": rows_answer("{customers} of your customers live in India."),
    },
    "How many of my customers live in my country?": {
        "view": "Customer",
        # Reads the staff table to find Jane's country: a table it must not read.
        "sql": "SELECT COUNT(*) AS customers FROM Customer c "
        "JOIN Employee e ON e.EmployeeId = c.SupportRepId "
        "WHERE c.SupportRepId = 3 AND c.Country = e.Country",
        "answer": rows_answer("{customers} of your customers live in your country."),
    },
    "What did my customers spend in 2024?": {
        "view": "Invoice",
        "sql": "SELECT ROUND(SUM(i.Total), 2) AS total FROM Invoice i "
        "JOIN Customer c ON c.CustomerId = i.CustomerId WHERE c.SupportRepId = 3 "
        "AND i.InvoiceDate >= '2024-01-01' AND i.InvoiceDate < '2025-01-01'",
        "answer": rows_answer("Your customers spent {total} in 2024."),
    },
    "Who are my three best customers by total spent?": {
        "view": "Invoice",
        "sql": "SELECT c.FirstName || ' ' || c.LastName AS customer, ROUND(SUM(i.Total), 2) AS spent "
        "FROM Invoice i JOIN Customer c ON c.CustomerId = i.CustomerId WHERE c.SupportRepId = 3 "
        "GROUP BY c.CustomerId ORDER BY spent DESC LIMIT 3",
        "answer": lambda rows: ", ".join(f"{r['customer']} ({r['spent']})" for r in rows),
    },
    "How many playlists are there?": {"text": "There are 18 playlists."},
    # Only text, and a number that is not the reference value.
    "How many media types are there?": {"text": "There are 5 media types, 2 of them protected."},
}

def run_sql(sql):
    """Runs the agent's SQL read-only on the example database: column names and rows.

    One connection per query, so the HTTP example can call it from any thread.
    """
    db = sqlite3.connect(f"file:{DATABASE}?mode=ro", uri=True)
    try:
        cursor = db.execute(sql)
        return [d[0] for d in cursor.description], cursor.fetchall()
    finally:
        db.close()


def answer(question):
    """The agent: answers a question about the Chinook store, recording each step."""
    reply = REPLIES.get(question)
    if reply is None:
        return [{"kind": "answer", "output": "Sorry, I cannot answer that."}]
    if "text" in reply:
        return [{"kind": "answer", "output": reply["text"]}]
    stages = [
        {"kind": "route", "name": "view", "output": reply["view"]},
        {"kind": "generate", "output": reply["sql"]},
    ]
    try:
        columns, rows = run_sql(reply["sql"])
    except sqlite3.Error as error:
        stages.append({"kind": "execute", "error": str(error)})
        return stages
    # Rows as columns and value lists: no column is lost when two share a name.
    stages.append({"kind": "execute", "rows": {"columns": columns, "rows": rows}})
    by_name = [dict(zip(columns, row)) for row in rows]
    stages.append({"kind": "answer", "output": reply["answer"](by_name)})
    return stages


def main():
    for line in sys.stdin:
        request = json.loads(line)
        print(f"case {request['id']}: {request['question']}", file=sys.stderr, flush=True)
        reply = {"id": request["id"], "stages": answer(request["question"])}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
