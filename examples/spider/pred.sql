SELECT count(*) FROM singer
SELECT avg(Age), min(Age), max(Age) FROM singer WHERE Country = "France"
SELECT Country, count(*) AS singers FROM singer GROUP BY Country
SELECT count(*) FROM concert WHERE Year = 2014
SELECT Country FROM singer WHERE Age > 40 AND Age < 30
SELECT count(*) FROM pet WHERE weight > 10
