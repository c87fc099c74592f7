"""The Battle of Simancas screen: both sides' cards on the table, the totals, the match score."""
