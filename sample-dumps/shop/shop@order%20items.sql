-- MySQLShell dump 2.0.1  Distrib Ver 9.1.0 for Linux on x86_64 - for MySQL 9.7.2 (Source distribution), for Linux (x86_64)
--
-- Host: 127.0.0.1    Database: shop    Table: order items
-- ------------------------------------------------------
-- Server version	9.7.4

--
-- Table structure for table `order items`
--

/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!50503 SET character_set_client = utf8mb4 */;
CREATE TABLE IF NOT EXISTS `order items` (
  `order_id` bigint NOT NULL,
  `line` int NOT NULL,
  `sku` varchar(20) NOT NULL,
  `qty` int NOT NULL,
  PRIMARY KEY (`order_id`,`line`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci;
/*!40101 SET character_set_client = @saved_cs_client */;
