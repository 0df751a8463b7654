"""Res Arcana (Sand Castle Games, 2019): engine building with essences, 2-4 players."""
