-- MySQLShell dump 2.0.1  Distrib Ver 9.1.0 for Linux on x86_64 - for MySQL 9.7.2 (Source distribution), for Linux (x86_64)
--
-- Host: 127.0.0.1    Database: shop    Table: products
-- ------------------------------------------------------
-- Server version	9.7.4

--
-- Table structure for table `products`
--

/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!50503 SET character_set_client = utf8mb4 */;
CREATE TABLE IF NOT EXISTS `products` (
  `id` int NOT NULL,
  `sku` varchar(20) NOT NULL,
  `thumbnail` varbinary(16) DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci;
/*!40101 SET character_set_client = @saved_cs_client */;
