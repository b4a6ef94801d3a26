-- MySQLShell dump 2.0.1  Distrib Ver 9.1.0 for Linux on x86_64 - for MySQL 9.7.2 (Source distribution), for Linux (x86_64)
--
-- Host: 127.0.0.1    Database: shop    Table: events
-- ------------------------------------------------------
-- Server version	9.7.4

--
-- Table structure for table `events`
--

/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!50503 SET character_set_client = utf8mb4 */;
CREATE TABLE IF NOT EXISTS `events` (
  `id` int NOT NULL,
  `happened_at` date NOT NULL,
  `kind` varchar(20) NOT NULL,
  `payload` varchar(200) DEFAULT NULL,
  PRIMARY KEY (`id`,`happened_at`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci
/*!50100 PARTITION BY RANGE (to_days(`happened_at`))
(PARTITION p2026_01 VALUES LESS THAN (740013) ENGINE = InnoDB,
 PARTITION p2026_02 VALUES LESS THAN (740041) ENGINE = InnoDB,
 PARTITION p2026_03 VALUES LESS THAN (740072) ENGINE = InnoDB,
 PARTITION pmax VALUES LESS THAN MAXVALUE ENGINE = InnoDB) */;
/*!40101 SET character_set_client = @saved_cs_client */;
