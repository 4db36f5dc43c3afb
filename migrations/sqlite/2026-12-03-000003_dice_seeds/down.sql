DROP TABLE dice_seeds;
