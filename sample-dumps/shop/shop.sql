-- MySQLShell dump 2.0.1  Distrib Ver 9.1.0 for Linux on x86_64 - for MySQL 9.7.2 (Source distribution), for Linux (x86_64)
--
-- Host: 127.0.0.1    Database: shop
-- ------------------------------------------------------
-- Server version	9.7.4

--
-- Current Database: shop
--

CREATE DATABASE /*!32312 IF NOT EXISTS*/ `shop` /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci */ /*!80016 DEFAULT ENCRYPTION='N' */;

USE `shop`;

--
-- Dumping events for database 'shop'
--

--
-- Dumping routines for database 'shop'
--

