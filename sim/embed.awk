# embed.awk - turn profile text files into C strings (the simulator's
# built-in profiles). Usage: awk -v sym=card -f embed.awk FILE...
# Writes sim_builtin_<sym>_text[], _file[] and _n.
BEGIN { n = 0; printf "const char *const sim_builtin_%s_text[] = {\n", sym }
FNR == 1 {
	if (n > 0)
		printf ",\n"
	files[n++] = FILENAME
}
{
	line = $0
	gsub(/\\/, "\\\\", line)
	gsub(/"/, "\\\"", line)
	printf "\"%s\\n\"\n", line
}
END {
	printf "};\nconst char *const sim_builtin_%s_file[] = {\n", sym
	for (i = 0; i < n; i++)
		printf "\t\"%s\",\n", files[i]
	printf "};\nconst unsigned sim_builtin_%s_n = %d;\n", sym, n
}
