#!/usr/bin/env bash
# Grades a class's submissions on a Slurm cluster in __SHARDS__ shards, then merges them.
# Written by `dimred-teach class-template slurm`. Run it on a login node, from the course's
# checkout (the class report names its lectures' sections from it), with every folder on a
# file system the compute nodes share:
#     bash grade-class.sh SUBMISSIONS_FOLDER OUT_FOLDER
# It submits a job array (sbatch --array=0-__LAST__), one shard per task, each grading a stable
# share of the notebooks in bubblewrap, and a merge job that starts when every task has ended
# (afterany: a lost shard is then named by the merge, not silently waited for). The merge
# writes OUT_FOLDER/class/: reports/, gradebook.csv and class-report/index.html.
# The compute nodes must allow unprivileged user namespaces (sysctl user.max_user_namespaces
# above 0 and, on Ubuntu, kernel.apparmor_restrict_unprivileged_userns=0), or the jobs run
# as root. Export DIMRED_TEACH_SEED_KEY (any long random text) before running, so the shards
# draw the checks' instances as one run would; DIMRED_TEACH names the command (default: the
# dimred-teach on the PATH, e.g. in an activated venv).
set -euo pipefail
submissions=$(realpath "${1:?the folder of submissions}")
out=$(realpath -m "${2:?a new folder for the shards and the merged class}")
dimred_teach=${DIMRED_TEACH:-$(command -v dimred-teach)}
mkdir -p "$out/logs"
array=$(sbatch --parsable --array=0-__LAST__ --job-name=dimred-grade --cpus-per-task=2 --mem=8G \
  --time=04:00:00 --chdir="$PWD" --output="$out/logs/shard-%a.log" --export=ALL <<JOB
#!/usr/bin/env bash
"$dimred_teach" grade "$submissions" --shard --sandbox bwrap --jobs 2 --out "$out/shard-\$SLURM_ARRAY_TASK_ID" || [ \$? -eq 1 ]
JOB
)
merge=$(sbatch --parsable --dependency="afterany:${array%%;*}" --job-name=dimred-merge --mem=4G --time=01:00:00 \
  --chdir="$PWD" --output="$out/logs/merge.log" --export=ALL <<JOB
#!/usr/bin/env bash
"$dimred_teach" merge "$out"/shard-*/ --out "$out/class" || [ \$? -eq 1 ]
JOB
)
echo "submitted the array ${array%%;*} (__SHARDS__ shards) and the merge $merge; the class report: $out/class/class-report/index.html"
